// `npm run bench -- --against <ref>`: a commit it cannot check out is refused with one line and exit 2, and nothing is
// left behind (no worktree of git's, no folder). Its comparison itself is timed runs, measured by use (docs/speed-log.md).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const worktrees = () => spawnSync('git', ['worktree', 'list'], { cwd: ROOT, encoding: 'utf8' }).stdout;
const folders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('conformance-bench-against-'));

describe('npm run bench -- --against', () => {
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
});
