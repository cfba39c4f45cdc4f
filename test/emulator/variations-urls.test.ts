// The emulator's variations of how URLs are taken and written back each do what they say (see variations.test.ts).
import { expect } from 'vitest';
import { postAccepted, describeVariations, got, recordsOf, type VariationCase } from './variation-server.js';

const cases: VariationCase[] = [
  [
    'redirect-uri-normalised',
    async (server) => {
      const client = await postAccepted(server, '/v4/account/oauth-clients', { label: 'normal-form', redirect_uri: 'https://Example.com' });
      expect((await got(server, `/v4/account/oauth-clients/${String(client.id)}`)).redirect_uri).toBe('https://example.com/');
    },
  ],
  [
    'caa-iodef-http-mailto-only',
    async (server) => {
      const create = await recordsOf(server, 'iodef.example.com');
      const iodef = (target: string) => create({ type: 'CAA', name: '', tag: 'iodef', target });
      expect((await iodef('https://example.com/report').expect(400)).body.errors[0]).toMatchObject({ field: 'target' });
      await iodef('http://example.com/report').expect(200);
      await iodef('mailto:security@example.com').expect(200);
    },
  ],
];

describeVariations('emulator variations: URLs', cases);
