// An explicitly given --control-url that offers no control hooks stops the run with one clear line and exit 2: a typo
// must not quietly turn every check needing the hooks into a skip.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_READS } from '../../cli/preflight.js';
import { hostile, startFakeServer, type FakeServer } from '../hostile/fake-servers.js';
import { conformance, tempDir } from './support.js';

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let target: FakeServer;
beforeAll(async () => {
  target = await startFakeServer(hostile.ok());
});
afterAll(async () => {
  await target.close();
});

describe('--control-url given explicitly', () => {
  for (const [name, controlUrl, why] of [
    ['that does not answer', async () => `http://127.0.0.1:${await closedPort()}`, /GET \/__control had no answer/],
    ['that answers, but not as control hooks', async () => target.url, /GET \/__control answered HTTP 200 without \{"control": true\}/],
  ] as const)
    it(`${name}: one line naming it and why, exit 2, nothing run`, async () => {
      const url = await controlUrl();
      const result = await conformance([
        'run',
        '--base-url',
        target.url,
        '--token',
        'control-url-token-1',
        '--control-url',
        url,
        '--out',
        tempDir('control-url'),
        '--no-allure',
        '--progress',
        'quiet',
        '--timeout',
        '2000',
        '--rules',
        'P1.account.serves.get-account',
        'specs/generic/part1',
      ]);
      expect(result.code).toBe(2);
      const lines = result.stderr
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('conformance: run '));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`the control URL ${url} offers no control hooks`);
      expect(lines[0]).toMatch(why);
      // The command's pre-flight reads with the token (is it refused?) come first; then nothing.
      expect(target.seen.filter((request) => request.path.startsWith('/v4/') && !TOKEN_READS.includes(request.path))).toEqual([]);
    }, 30_000);
});
