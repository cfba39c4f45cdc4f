// Names the self-test file a worker thread is running in that thread's environment, which the processes the file
// starts inherit: `npm run bench -- --with-tests` sums their CPU by the file that started them
// (scripts/bench-cpu-hook.mjs). Each vitest worker thread has an environment of its own. Under the bench, it also logs
// the CPU the file's tests took in the thread itself (its proxies, fake servers, in-process emulators), where Linux
// shows a thread's CPU.
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** This thread's CPU (user + system) in clock ticks: proc(5)'s utime and stime; undefined where there is no such file. */
function threadTicks(): number | undefined {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command's name: state is field 3, utime and stime fields 14 and 15.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

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
