// `npm run bench -- --with-tests`: the CPU the gate's processes logged, summed by self-test file. A file's own thread
// (what test/selftest-file.ts logged in clock ticks) counts with the processes it started, and comes off vitest's
// process, which holds that thread: no CPU is counted twice or lost.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuByProcess, cpuBySelfTest, procStatTicks, readProcessLog } from '../../scripts/bench-cpu.js';
import { tempDir } from '../safety/support.js';

const VITEST = '/repo/node_modules/vitest/vitest.mjs';
const EMULATOR = '/repo/node_modules/.cache/chs-conformance/emulator-0123.mjs';
const COMMAND = '/repo/bin/conformance.js';

function log(entries: object[]): string {
  const file = join(tempDir('cpu-log'), 'cpu.jsonl');
  writeFileSync(file, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  return file;
}

describe('the bench: CPU by self-test file', () => {
  const file = log([
    { script: VITEST, cpuMs: 100_000 },
    { script: COMMAND, cpuMs: 3_000, selftest: 'test/a.test.ts' },
    { script: EMULATOR, cpuMs: 1_000, selftest: 'test/a.test.ts', servedBucketMs: 10, served: [[1, 5]] },
    { script: '/repo/node_modules/typescript-native/bin/tsc', cpuMs: 2_000 },
    { selftest: 'test/a.test.ts', threadTicks: 500 },
    { selftest: 'test/b.test.ts', threadTicks: 250 },
  ]);
  const logged = readProcessLog(file);

  it('counts a file its tests in their thread and the processes it started, and takes the threads off vitest', () => {
    const rows = cpuBySelfTest(logged, 100);
    expect(rows).toEqual([
      { what: '(no self-test) vitest (its start, transforms and imports)', cpuMs: 92_500 },
      { what: 'test/a.test.ts', cpuMs: 9_000 },
      { what: 'test/b.test.ts', cpuMs: 2_500 },
      { what: '(no self-test) bin/tsc', cpuMs: 2_000 },
    ]);
    const processesTotal = logged.processes.reduce((sum, { cpuMs }) => sum + cpuMs, 0);
    expect(rows.reduce((sum, { cpuMs }) => sum + cpuMs, 0)).toBe(processesTotal);
  });

  it('leaves the threads out of the CPU by kind of process', () => {
    expect(cpuByProcess(logged.processes)).toEqual([
      { what: 'vitest (with the in-process self-tests)', cpuMs: 100_000 },
      { what: 'the command (main thread, vitest workers, V8 threads)', cpuMs: 3_000 },
      { what: 'bin/tsc', cpuMs: 2_000 },
      { what: 'the emulator', cpuMs: 1_000 },
    ]);
  });

  it("keeps vitest's process whole where no thread was logged (no per-thread CPU on this system)", () => {
    const rows = cpuBySelfTest({ processes: logged.processes, threads: [] }, 100);
    expect(rows[0]).toEqual({ what: '(no self-test) vitest (with the in-process self-tests)', cpuMs: 100_000 });
    expect(rows.find(({ what }) => what === 'test/a.test.ts')?.cpuMs).toBe(4_000);
  });

  it("sums two fields of a proc stat file by their proc(5) numbers, past a command name holding ') '", () => {
    const stat = join(tempDir('cpu-log'), 'stat');
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    writeFileSync(stat, '42 (node) (x y) S 1 42 42 0 -1 4194304 10 0 0 0 700 80 9000 600 20 0\n');
    expect(procStatTicks(stat, [14, 15])).toBe(780);
    expect(procStatTicks(stat, [16, 17])).toBe(9600);
    expect(procStatTicks(join(tempDir('cpu-log'), 'none'), [14, 15])).toBeUndefined();
  });

  it('reads a missing log as nothing logged', () => {
    expect(readProcessLog(join(tempDir('cpu-log'), 'none.jsonl'))).toEqual({ processes: [], threads: [] });
  });
});
