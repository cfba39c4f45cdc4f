// `npm run bench`: a commit it cannot check out (`--against <ref>`), or a command it cannot start (npx, which times the
// full run as typed), stops it with one line and exit 2; an interrupted bench stops the runs it started; and nothing is
// left behind (no worktree of git's, no folder). Its figures themselves are timed runs, measured by use
// (docs/speed-log.md).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../safety/support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const worktrees = () => spawnSync('git', ['worktree', 'list'], { cwd: ROOT, encoding: 'utf8' }).stdout;
const folders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('conformance-bench-'));

describe('npm run bench', () => {
  it('refuses a commit it cannot check out, leaving nothing behind', () => {
    const [worktreesBefore, foldersBefore] = [worktrees(), folders()];
    const bench = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--against', 'no-such-commit-anywhere'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(bench.status).toBe(2);
    expect(bench.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^bench: cannot check out no-such-commit-anywhere: .*invalid reference/)]);
    expect(worktrees()).toBe(worktreesBefore);
    expect(folders()).toEqual(foldersBefore);
  }, 60_000);

  it('stops with one line when npx is not on the PATH, leaving no folder', () => {
    const path = tempDir('bench-path');
    symlinkSync(process.execPath, join(path, 'node'));
    const foldersBefore = folders();
    const bench = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--skip-matrices', '--seconds', '1'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, PATH: path },
    });
    expect(bench.status).toBe(2);
    expect(bench.stderr.trim().split('\n')).toEqual(['bench: could not start npx: spawn npx ENOENT']);
    expect(folders()).toEqual(foldersBefore);
  }, 60_000);

  it('stops the runs it started when interrupted, and removes their folders and its worktree', async () => {
    const [worktreesBefore, foldersBefore] = [worktrees(), folders()];
    const bench = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--against', 'HEAD', '--pairs', '1'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    bench.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => bench.once('close', resolve));
    // The first timed run's output folder (the worktree's is named conformance-bench-against-…).
    let runFolder: string | undefined;
    for (let waited = 0; !runFolder && waited < 50_000; waited += 100) {
      await delay(100);
      runFolder = folders().find((name) => !foldersBefore.includes(name) && !name.startsWith('conformance-bench-against-'));
    }
    expect(runFolder, 'the bench started no run').toBeDefined();
    expect(worktrees()).not.toBe(worktreesBefore);
    bench.kill('SIGTERM');
    expect(await closed).toBe(143);
    expect(stderr.trim()).toBe('bench: SIGTERM: stopping what it started and removing its temporary files');
    expect(worktrees()).toBe(worktreesBefore);
    expect(folders()).toEqual(foldersBefore);
    const stillRunning = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(runFolder!);
        } catch {
          return false; // ended meanwhile
        }
      });
    expect(stillRunning, 'the run the bench started is still running').toEqual([]);
  }, 60_000);
});
