// Global setup of the self-tests: every temporary folder they make, and the runs, emulators and renderers they start
// (which inherit the environment), lands in one folder of the system's, removed when the tests end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'chs-selftest-'));
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
