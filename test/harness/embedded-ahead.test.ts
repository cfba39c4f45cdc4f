// `conformance run` starts the embedded emulator ahead, while vitest starts (cli/run.ts): the run's global setup takes
// that one when it asks for the same faults and variations (and token), once; one no setup took is stopped.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedAhead, stopEmbeddedAhead, takeEmbeddedAhead } from '../../harness/embedded.js';

const TOKEN = 'ahead-test-token-0001';
const FAULTS = ['P2.tag-create.label.required'];
const exited = (child: { exitCode: number | null; signalCode: string | null }) => child.exitCode !== null || child.signalCode !== null;

afterEach(() => stopEmbeddedAhead());

describe('the embedded emulator started ahead', () => {
  it('is taken once, with its token, by a setup asking for the same faults and variations', async () => {
    startEmbeddedAhead(TOKEN, FAULTS, []);
    const taken = takeEmbeddedAhead(undefined, FAULTS, [])!;
    expect(taken.token).toBe(TOKEN);
    const emulator = await taken.emulator;
    try {
      const answer = await fetch(`${emulator.url}/v4/account`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(answer.status).toBe(200);
      expect(takeEmbeddedAhead(undefined, FAULTS, [])).toBeNull();
      // taken, so not the run's to stop
      await stopEmbeddedAhead();
      expect(exited(emulator.child)).toBe(false);
    } finally {
      await emulator.stop();
    }
  }, 30_000);

  it('is not taken by a setup asking for other faults, variations or another token, and the run stops it', async () => {
    startEmbeddedAhead(TOKEN, FAULTS, []);
    expect(takeEmbeddedAhead(undefined, [], [])).toBeNull();
    expect(takeEmbeddedAhead(undefined, FAULTS, ['rate-limit-headers'])).toBeNull();
    expect(takeEmbeddedAhead('another-token-0001', FAULTS, [])).toBeNull();
    const stopped = (await stopEmbeddedAhead())!;
    expect(exited(stopped.child)).toBe(true);
    await expect(fetch(`${stopped.url}/v4/account`)).rejects.toThrow();
    expect(takeEmbeddedAhead(TOKEN, FAULTS, [])).toBeNull();
  }, 30_000);
});
