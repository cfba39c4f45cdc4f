// The settings are declared once (harness/settings.ts): the README's table is produced from the declarations, and
// `run` and `plan` offer the same flags.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../cli/program.js';
import { SETTINGS, withSettingsTable } from '../../harness/settings.js';

const flagsOf = (name: string) =>
  buildProgram()
    .commands.find((command) => command.name() === name)!
    .options.map((option) => option.long!);

describe('settings: one declaration each', () => {
  it("README.md's configuration table is the one the declarations produce (`npm run docs:settings` rewrites it)", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(withSettingsTable(readme) === readme, 'the README table is stale: run `npm run docs:settings`').toBe(true);
  });

  it('no two settings share a flag, an environment variable or a config key', () => {
    for (const field of ['flag', 'env', 'key'] as const) {
      const names = SETTINGS.map((declared) => declared[field].split(' ')[0]);
      expect(new Set(names).size, field).toBe(names.length);
    }
  });

  it('run and plan take the same flags (plan keeps --json for its own output)', () => {
    const run = flagsOf('run');
    expect(run).toEqual(expect.arrayContaining(['--config', ...SETTINGS.map((declared) => declared.flag.split(' ')[0]!)]));
    expect(
      flagsOf('plan')
        .filter((flag) => flag !== '--json')
        .sort(),
    ).toEqual(run.filter((flag) => flag !== '--json').sort());
  });
});
