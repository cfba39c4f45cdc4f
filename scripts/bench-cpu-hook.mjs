// Loaded into every Node process of the benchmarked run (`NODE_OPTIONS=--import …`, which its children inherit): at
// exit, appends the process's CPU (user + system, ms), the script it ran and, for a process serving HTTP (the
// emulator), the requests it was sent, counted by the 10 ms of wall-clock time they began in, to the file named by
// BENCH_CPU_LOG, with the self-test file that started it when a self-test did (test/selftest-file.ts). Worker threads
// load it too: only the main thread logs (the usage is the whole process's).
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/** Requests served, by `Math.floor(Date.now() / SERVED_BUCKET_MS)`. */
const SERVED_BUCKET_MS = 10;

const log = process.env.BENCH_CPU_LOG;
if (log && isMainThread) {
  const served = new Map();
  subscribe('http.server.request.start', () => {
    const bucket = Math.floor(Date.now() / SERVED_BUCKET_MS);
    served.set(bucket, (served.get(bucket) ?? 0) + 1);
  });
  process.on('exit', () => {
    const { userCPUTime, systemCPUTime } = process.resourceUsage();
    const entry = { script: process.argv[1] ?? '', cpuMs: (userCPUTime + systemCPUTime) / 1000 };
    if (process.env.SELFTEST_FILE) entry.selftest = process.env.SELFTEST_FILE;
    if (served.size) Object.assign(entry, { servedBucketMs: SERVED_BUCKET_MS, served: [...served] });
    appendFileSync(log, `${JSON.stringify(entry)}\n`);
  });
}
