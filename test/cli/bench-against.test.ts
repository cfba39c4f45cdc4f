// `npm run bench`: a commit it cannot check out (`--against <ref>`), or a command it cannot start (npx, which times the
// full run as typed), stops it with one line and exit 2, and nothing is left behind (no worktree of git's, no folder).
// Its figures themselves are timed runs, measured by use (docs/speed-log.md).
import { spawnSync } from 'node:child_process';
import { readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
