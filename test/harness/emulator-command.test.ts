// The emulator a child process runs is the emulator of the sources: bundled once, rebuilt when a source it was built
// from changes, and run from the sources through tsx when no bundle can be made.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { emulatorCommand } from '../../harness/emulator-command.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Beside the real cache, as the real bundle is.
mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
const dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'emulator-command-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const listFaults = (command: string[]) => spawnSync(process.execPath, [...command, '--list-faults'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
const manifestOf = (cache: string) =>
  JSON.parse(readFileSync(join(cache, 'emulator-bundle.json'), 'utf8')) as { output: string; inputs: Record<string, string> };

describe('the command that runs the reference emulator', () => {
  it('runs a bundle of the sources, which answers as the sources do', async () => {
    const cache = join(dir, 'fresh');
    const command = await emulatorCommand(cache);
    expect(command).toEqual([join(cache, manifestOf(cache).output)]);
    expect(Object.keys(manifestOf(cache).inputs)).toEqual(
      expect.arrayContaining(['emulator/main.ts', 'emulator/server.ts', 'tsconfig.json', 'package-lock.json']),
    );
    const bundled = listFaults(command);
    expect(bundled.status).toBe(0);
    expect(bundled.stdout).toBe(listFaults(['--import', 'tsx', 'emulator/main.ts']).stdout);
    // Built once: the next start takes the same file, not rewritten.
    const written = statSync(command[0]!).mtimeMs;
    expect(await emulatorCommand(cache)).toEqual(command);
    expect(statSync(command[0]!).mtimeMs).toBe(written);
  }, 60_000);

  it('rebuilds the bundle when a source it was built from is not what it was', async () => {
    const cache = join(dir, 'stale');
    await emulatorCommand(cache);
    const manifest = manifestOf(cache);
    const [file, hash] = Object.entries(manifest.inputs)[0]!;
    writeFileSync(join(cache, 'emulator-bundle.json'), JSON.stringify({ ...manifest, inputs: { ...manifest.inputs, [file]: `${hash}0` } }));
    const command = await emulatorCommand(cache);
    expect(command).toEqual([join(cache, manifest.output)]);
    expect(manifestOf(cache).inputs[file]).toBe(hash);
  }, 60_000);

  it('runs the sources through tsx when the bundle cannot be written', async () => {
    // A cache folder under a file cannot be made.
    writeFileSync(join(dir, 'a-file'), '');
    expect(await emulatorCommand(join(dir, 'a-file', 'cache'))).toEqual(['--import', 'tsx', 'emulator/main.ts']);
  });
});
