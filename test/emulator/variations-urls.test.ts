// The emulator's variations of how URLs are taken and written back each do what they say (see variations.test.ts).
import request from 'supertest';
import { expect } from 'vitest';
import { AUTH, postAccepted, describeVariations, got, recordsOf, type VariationCase } from './variation-server.js';

const cases: VariationCase[] = [
  [
    'redirect-uri-normalised',
    async (server) => {
      const client = await postAccepted(server, '/v4/account/oauth-clients', { label: 'normal-form', redirect_uri: 'https://Example.com' });
      expect((await got(server, `/v4/account/oauth-clients/${String(client.id)}`)).redirect_uri).toBe('https://example.com/');
    },
  ],
  [
    'redirect-uri-no-loopback',
    async (server) => {
      const create = (label: string, redirect_uri: string) => request(server).post('/v4/account/oauth-clients').set(AUTH).send({ label, redirect_uri });
      expect((await create('loopback', 'https://localhost:8443/cb').expect(400)).body.errors[0]).toMatchObject({ field: 'redirect_uri' });
      await create('public-host', 'https://auth.example.net:8443/cb').expect(200);
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
