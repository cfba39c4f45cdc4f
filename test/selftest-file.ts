// Names the self-test file a worker thread is running in that thread's environment, which the processes the file
// starts inherit: `npm run bench -- --with-tests` sums their CPU by the file that started them
// (scripts/bench-cpu-hook.mjs). Each vitest worker thread has an environment of its own. Under the bench, it also logs
// the CPU the file's tests took in the thread itself (its proxies, fake servers, in-process emulators), where Linux
// shows a thread's CPU.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { procStatTicks } from '../scripts/bench-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** This thread's CPU (user + system) in clock ticks; undefined where Linux does not show it. */
const threadTicks = () => procStatTicks('/proc/thread-self/stat', [14, 15]);

let ticksAtStart: number | undefined;

beforeAll(() => {
  process.env.SELFTEST_FILE = relative(ROOT, expect.getState().testPath ?? '');
  ticksAtStart = process.env.BENCH_CPU_LOG ? threadTicks() : undefined;
});

afterAll(() => {
  const ticks = ticksAtStart === undefined ? undefined : threadTicks();
  if (ticks === undefined) return;
  appendFileSync(process.env.BENCH_CPU_LOG!, `${JSON.stringify({ selftest: process.env.SELFTEST_FILE, threadTicks: ticks - ticksAtStart! })}\n`);
});
