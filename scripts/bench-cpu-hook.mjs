// Loaded into every Node process of the benchmarked run (`NODE_OPTIONS=--import …`, which its children inherit): at
// exit, appends the process's CPU (user + system, ms) and the script it ran to the file named by BENCH_CPU_LOG. Worker
// threads load it too: only the main thread logs (the usage is the whole process's).
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const log = process.env.BENCH_CPU_LOG;
if (log && isMainThread)
  process.on('exit', () => {
    const { userCPUTime, systemCPUTime } = process.resourceUsage();
    appendFileSync(log, `${JSON.stringify({ script: process.argv[1] ?? '', cpuMs: (userCPUTime + systemCPUTime) / 1000 })}\n`);
  });
