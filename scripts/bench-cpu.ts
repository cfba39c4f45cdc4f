// The CPU a benchmarked command's processes logged (scripts/bench-cpu-hook.mjs, at each process's exit) and, under
// `npm test`, what each self-test file's tests took in their vitest thread (test/selftest-file.ts): read and summed by
// kind of process and by self-test file for `npm run bench`.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * Two fields of a proc(5) `stat` file summed (CPU times in clock ticks), by their numbers in proc(5): 14 and 15 a
 * thread's or process's own user and system time, 16 and 17 its waited-for children's. Undefined where there is no
 * such file (not Linux).
 */
export function procStatTicks(file: string, [first, second]: [number, number]): number | undefined {
  try {
    const stat = readFileSync(file, 'utf8');
    // The fields after the command's name (which may hold spaces), from field 3 on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[first - 3]) + Number(fields[second - 3]);
  } catch {
    return undefined;
  }
}

/** CPU ms (user + system) by what took it. */
export type CpuRows = Array<{ what: string; cpuMs: number }>;

const VITEST_PROCESS = 'vitest (with the in-process self-tests)';

/**
 * What a process of the run (or of the test gate) is, from the script it ran (the emulator's bundle, or its sources
 * when none is built).
 */
function processKind(script: string): string {
  const name = basename(script);
  // (through npx, the bin's link in npx's folder)
  if (name === 'conformance.js' || name === 'conformance') return 'the command (main thread, vitest workers, V8 threads)';
  if (name === 'npx-cli.js' || name === 'npm-cli.js') return 'npx (finding the command, before it starts)';
  if (name === 'allure-render.mjs') return 'the Allure renderer';
  if (name.startsWith('emulator-') || script.endsWith('emulator/main.ts')) return 'the emulator';
  if (name === 'vitest' || name === 'vitest.mjs') return VITEST_PROCESS;
  return script.split('/').slice(-2).join('/');
}

/** What scripts/bench-cpu-hook.mjs logged for each Node process of a command (nothing if the log is missing). */
export interface ProcessLog {
  script: string;
  cpuMs: number;
  /** For a process that served HTTP: requests begun in each bucket of `servedBucketMs` of wall-clock time. */
  servedBucketMs?: number;
  served?: Array<[bucket: number, requests: number]>;
  /** The self-test file that started it, when one did (test/selftest-file.ts). */
  selftest?: string;
}

/** What test/selftest-file.ts logged for a self-test file: the CPU its tests took in their vitest thread, in clock ticks. */
interface SelfTestThreadLog {
  selftest: string;
  threadTicks: number;
}

/** The command's processes, and the self-test files' own threads (part of vitest's process), as they were logged. */
export function readProcessLog(log: string): { processes: ProcessLog[]; threads: SelfTestThreadLog[] } {
  const entries = existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ProcessLog | SelfTestThreadLog)
    : [];
  return {
    processes: entries.filter((entry): entry is ProcessLog => !('threadTicks' in entry)),
    threads: entries.filter((entry): entry is SelfTestThreadLog => 'threadTicks' in entry),
  };
}

/** The CPU of each kind of process the command started. */
export function cpuByProcess(processes: ProcessLog[]): CpuRows {
  const byKind = new Map<string, number>();
  for (const entry of processes) {
    const kind = processKind(entry.script);
    byKind.set(kind, (byKind.get(kind) ?? 0) + entry.cpuMs);
  }
  return [...byKind].map(([what, cpuMs]) => ({ what, cpuMs })).sort((a, b) => b.cpuMs - a.cpuMs);
}

/**
 * The CPU of each self-test file, most first: its tests in their vitest thread, and the processes it started (with
 * their own children); then what no self-test file took, by kind of process (vitest's process less its files' threads:
 * its start, transforms and imports; typecheck and lint).
 */
export function cpuBySelfTest({ processes, threads }: ReturnType<typeof readProcessLog>, ticksPerSecond: number): CpuRows {
  const byFile = new Map<string, number>();
  const add = (file: string, cpuMs: number) => byFile.set(file, (byFile.get(file) ?? 0) + cpuMs);
  for (const { selftest, cpuMs } of processes) if (selftest) add(selftest, cpuMs);
  const threadMs = ({ threadTicks }: SelfTestThreadLog) => (threadTicks * 1000) / ticksPerSecond;
  for (const thread of threads) add(thread.selftest, threadMs(thread));
  const inThreads = threads.reduce((sum, thread) => sum + threadMs(thread), 0);
  const files = [...byFile].map(([what, cpuMs]) => ({ what, cpuMs }));
  const others = cpuByProcess(processes.filter(({ selftest }) => !selftest)).map(({ what, cpuMs }) =>
    what === VITEST_PROCESS && threads.length
      ? { what: '(no self-test) vitest (its start, transforms and imports)', cpuMs: cpuMs - inThreads }
      : { what: `(no self-test) ${what}`, cpuMs },
  );
  return [...files, ...others].sort((a, b) => b.cpuMs - a.cpuMs);
}
