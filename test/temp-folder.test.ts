// The self-tests leave nothing in the system's temporary folder: theirs is one folder of it, removed when they end
// (test/temp-folder.ts), which the processes they start inherit.
import { execFileSync } from 'node:child_process';
import { basename } from 'node:path';
import { tmpdir } from 'node:os';
import { expect, it } from 'vitest';

it('the temporary folder of the self-tests and of the processes they start is their own', () => {
  expect(basename(tmpdir())).toMatch(/^chs-selftest-/);
  expect(execFileSync(process.execPath, ['-p', 'require("node:os").tmpdir()'], { encoding: 'utf8' }).trim()).toBe(tmpdir());
});
