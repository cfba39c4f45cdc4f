// Harness overhead: the same authenticated GET sent by a bare undici request and by a check (named checks on the
// response, endpoint accounting, evidence). Starts the reference emulator as a child process, as a run does.
// Usage: npx tsx scripts/bench-harness.ts [--requests N]
import { startEmbedded } from '../harness/embedded.js';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { Check } from '../harness/check.js';
import { defaults } from '../harness/config.js';
import { Target } from '../harness/target.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '5000' } } });
const N = Number(values.requests);
const TOKEN = 'bench-harness-token-0001';

const emulator = await startEmbedded(TOKEN, []);
const { url } = emulator;

async function timed(label: string, send: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await send(); // warm-up
  const started = performance.now();
  for (let i = 0; i < N; i++) await send();
  const perRequest = (performance.now() - started) / N;
  console.log(`${label.padEnd(44)} ${(1000 / perRequest).toFixed(0).padStart(6)} requests/s  ${(perRequest * 1000).toFixed(0).padStart(5)} µs/request`);
  return perRequest;
}

try {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const bare = await timed('bare undici GET /v4/account', async () => {
    const response = await request(`${url}/v4/account`, { headers: { authorization: `Bearer ${TOKEN}` }, dispatcher: agent });
    await response.body.json();
  });
  const target = new Target({ config: defaults(), baseUrl: url, token: TOKEN, controlUrl: url, embedded: true });
  const check = new Check(['P1.account.serves.get-account'], target);
  const harnessed = await timed('check GET /v4/account (judged, recorded)', () => check.get('/v4/account'));
  console.log(`harness overhead: ${((harnessed - bare) * 1000).toFixed(0)} µs per request (sequential, one connection, ${N} requests)`);
  await agent.close();
  await target.http.close();
} finally {
  await emulator.stop();
}
