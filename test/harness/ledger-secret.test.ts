// A target that gives a token as a resource id: the cleanup ledger on disk never holds it (a redacted line says an
// entry was kept from the file), the spec file's own cleanup still sees the real path, and `sweep` reports the entry
// as one to delete by hand instead of sending anything for it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CleanupLedger, ledgerDir, pendingOfRun, writeRunRecord } from '../../harness/cleanup.js';
import { HttpClient } from '../../harness/http.js';
import { registerSecret } from '../../harness/redact.js';
import { sweep } from '../../cli/sweep.js';
import { hostile, startFakeServer, type FakeServer } from '../hostile/fake-servers.js';
import { tempDir } from '../safety/support.js';

const TOKEN = 'ledger-secret-Tk9w2Q';
registerSecret(TOKEN);

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer(hostile.deletesEverything());
});
afterAll(async () => {
  await server.close();
});

describe('an id carrying a token', () => {
  it('is kept out of the ledger file, known in memory, and reported by sweep without a request for it', async () => {
    const out = tempDir('ledger-secret');
    writeRunRecord(out, { runId: 'lsec1', target: server.url, started: new Date().toISOString() });
    const ledger = new CleanupLedger(out, 'lsec1', 'part3-domains');
    ledger.record({ kind: 'domain', deletePath: `/v4/domains/${encodeURIComponent(TOKEN)}` });
    ledger.record({ kind: 'record', deletePath: '/v4/domains/12/records/3' });
    const file = readFileSync(join(ledgerDir(out, 'lsec1'), 'part3-domains.jsonl'), 'utf8');
    expect(file).not.toContain(TOKEN.slice(0, 10));
    expect(file).toContain('its id carries a token');
    expect(ledger.pending().map((entry) => entry.deletePath)).toEqual(['/v4/domains/12/records/3', `/v4/domains/${encodeURIComponent(TOKEN)}`]);
    expect(pendingOfRun(out, 'lsec1')).toHaveLength(2);

    const lines: string[] = [];
    const http = new HttpClient(server.url, 2000);
    try {
      const outcome = await sweep({ http, token: 'sweeper-token', baseUrl: server.url, out, runIds: ['lsec1'], print: (line) => lines.push(line) });
      expect(outcome.deleted).toBe(1);
      expect(outcome.remaining).toEqual([expect.stringMatching(/^domain \/v4\/domains\/\[REDACTED\]#1: its id carries a token/)]);
    } finally {
      await http.close();
    }
    expect(server.seen.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual(['/v4/domains/12/records/3']);

    // The spec file's own cleanup deletes it by its real path: the file then marks the redacted line deleted.
    ledger.markDeleted(`/v4/domains/${encodeURIComponent(TOKEN)}`);
    expect(pendingOfRun(out, 'lsec1')).toEqual([]);
    expect(readFileSync(join(ledgerDir(out, 'lsec1'), 'part3-domains.jsonl'), 'utf8')).not.toContain(TOKEN.slice(0, 10));
  });
});
