// A value read from the target and sent back is sent in the form of the documents' samples: a target may show
// date-times with a zone (the documents allow it) and still accept only the samples' form in a request.
import { describe, expect, it } from 'vitest';
import { inSampleForm } from '../../harness/lists.js';

describe('inSampleForm', () => {
  it('writes zoned date-times as UTC without a zone, whole seconds, anywhere in a body', () => {
    expect(
      inSampleForm({
        active_promotions: [{ expire_dt: '2030-01-31T00:00:00Z', summary: 'x' }],
        at: '2030-01-31T02:30:00+02:00',
        fine: '2030-01-31T00:00:00.250Z',
      }),
    ).toEqual({ active_promotions: [{ expire_dt: '2030-01-31T00:00:00', summary: 'x' }], at: '2030-01-31T00:30:00', fine: '2030-01-31T00:00:00' });
  });

  it('leaves everything else as it is', () => {
    const body = { created: '2030-01-31T00:00:00', label: 'Z', n: 3, none: null, list: ['2030-01-31'] };
    expect(inSampleForm(body)).toEqual(body);
  });
});
