// A target listing no public image (the documents promise none: "public images begin with `compute/`" says only how
// one is named): a proxy in front of the reference emulator leaves them out of both images lists. The checks of the
// lists judge what they can and never fail for the missing images.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startFakeServer, type FakeServer } from './fake-servers.js';
import { startEmulator } from '../safety/support.js';
import { EMBEDDED_RUN_SETTINGS, runConformance, ruleOf, type RunOutcome } from './conformance-run.js';

type Json = Record<string, unknown>;

const TOKEN = 'hostile-no-public-image-01';

/** The images list without its public images, its `results` counted again (the emulator shows it on one page). */
function withoutPublicImages(body: Buffer): Buffer {
  const list = JSON.parse(body.toString()) as Json;
  const data = (list.data as Json[]).filter((image) => !String(image.id).startsWith('compute/'));
  return Buffer.from(JSON.stringify({ ...list, data, results: data.length }));
}

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let proxy: FakeServer;
let outcome: RunOutcome;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  proxy = await startFakeServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    const answer = await send(emulator.url, request.method ?? 'GET', path, request.headers, chunks.length ? Buffer.concat(chunks) : undefined);
    const imagesList = request.method === 'GET' && path.split('?')[0] === '/v4/images' && answer.status === 200;
    response.writeHead(answer.status, answer.headers);
    response.end(imagesList ? withoutPublicImages(answer.body) : answer.body);
  });
  outcome = await runConformance([
    '--base-url',
    proxy.url,
    '--token',
    TOKEN,
    ...EMBEDDED_RUN_SETTINGS,
    '--no-allure',
    '--rules',
    'P2.images.list.public-without-auth,P2.images.list.private-with-auth',
    'specs/part2/images',
  ]);
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  emulator?.stop();
});

describe('a target listing no public image', () => {
  it('fails no check: the run exits 0', () => {
    expect(outcome.code, outcome.stderr.slice(-2000)).toBe(0);
  });

  it('skips the check of the list without a token, saying why', () => {
    const rule = ruleOf(outcome.results!, 'P2.images.list.public-without-auth');
    expect(rule.status).toBe('skip');
    expect(rule.checks.map((check) => check.message).join(' ')).toMatch(/lists no public image/);
  });

  it('still judges the private image in the list with a token', () => {
    expect(ruleOf(outcome.results!, 'P2.images.list.private-with-auth').status).toBe('pass');
  });
});
