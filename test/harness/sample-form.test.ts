// A value read from the target and sent back is sent in the form of the documents' samples: a target may show
// date-times with a zone, milliseconds or no seconds (the documents allow each) and still accept only the samples' form in a request.
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

  it('writes date-times with a fraction of a second (no zone: UTC) in whole seconds', () => {
    // Seen in the variation matrix: a target writing milliseconds refused its own promotion expiry sent back as shown.
    expect(inSampleForm({ active_promotions: [{ expire_dt: '2030-01-31T00:00:00.678' }], at: '2030-01-31T02:30:00.5+02:00' })).toEqual({
      active_promotions: [{ expire_dt: '2030-01-31T00:00:00' }],
      at: '2030-01-31T00:30:00',
    });
  });

  it('writes date-times to the minute (a reduced precision) with second 0', () => {
    // Seen in the variation matrix (datetime-minutes): the promotion expiry sent back as shown was refused.
    expect(inSampleForm({ expire_dt: '2030-01-31T00:05', at: '2030-01-31T02:30+02:00' })).toEqual({
      expire_dt: '2030-01-31T00:05:00',
      at: '2030-01-31T00:30:00',
    });
  });

  it('leaves everything else as it is', () => {
    const body = { created: '2030-01-31T00:00:00', label: 'Z', n: 3, none: null, list: ['2030-01-31'] };
    expect(inSampleForm(body)).toEqual(body);
  });
});
