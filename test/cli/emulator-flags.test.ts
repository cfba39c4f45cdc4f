// The emulator's flags (emulator/settings.ts): defaults, the environment's additions, one-line refusals, a --help
// line for each, and listings read only in part.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { emulatorCommand } from '../../harness/emulator-command.js';
import { FAULTS } from '../../emulator/faults/index.js';
import { FLAGS, UsageError, readSettings, usage } from '../../emulator/settings.js';

describe('emulator flags', () => {
  it('defaults to port 4010 on 127.0.0.1 with control hooks, no fault, no variation', () => {
    expect(readSettings([], {})).toMatchObject({
      port: 4010,
      host: '127.0.0.1',
      'no-control': false,
      fault: [],
      variation: [],
      token: undefined,
      'parent-pid': undefined,
      instances: false,
    });
  });

  it('reads each flag, and adds the faults of CHS_EMULATOR_FAULTS to those of --fault', () => {
    const [first, second] = FAULTS.map((fault) => fault.id);
    const settings = readSettings(['--port', '0', '--host', '0.0.0.0', '--no-control', '--token', 't0k', '--fault', first!, '--parent-pid', '42'], {
      CHS_EMULATOR_FAULTS: ` ${second},`,
    });
    expect(settings).toMatchObject({ port: 0, host: '0.0.0.0', 'no-control': true, token: 't0k', fault: [first, second], 'parent-pid': 42 });
  });

  it('refuses a bad value with one line naming the flag', () => {
    const refusals: Array<[string[], RegExp]> = [
      [['--port', '65536'], /^--port must be an integer from 0 to 65535, not "65536"$/],
      [['--port', 'x'], /--port/],
      [['--token', 'a b'], /^--token must be 1\.\.256 non-space characters$/],
      [['--parent-pid', '0'], /^--parent-pid must be a process id, not "0"$/],
      [['--fault', 'no-such-fault'], /^unknown fault no-such-fault \(--list-faults lists them\)$/],
      [['--variation', 'no-such-variation'], /^unknown variation no-such-variation/],
      [
        ['--variation', 'account-lists-page-size-max-20', '--variation', 'account-lists-page-size-clamped'],
        /^variations account-lists-page-size-max-20 and account-lists-page-size-clamped exclude each other: they answer one question differently/,
      ],
      [['--bogus'], /bogus/],
    ];
    for (const [args, message] of refusals) {
      expect(() => readSettings(args, {}), args.join(' ')).toThrow(UsageError);
      expect(() => readSettings(args, {}), args.join(' ')).toThrow(message);
    }
  });

  it('--help has a line for every flag', () => {
    const lines = usage().split('\n');
    for (const name of Object.keys(FLAGS))
      expect(
        lines.some((line) => line.includes(`--${name}`)),
        name,
      ).toBe(true);
  });

  it('ends a listing quietly when its reader hangs up (`--list-variations | head -1`)', async () => {
    const command = (await emulatorCommand()).map((part) => JSON.stringify(part)).join(' ');
    for (const flag of ['--list-faults', '--list-variations', '--help']) {
      const piped = spawnSync('bash', ['-c', `${JSON.stringify(process.execPath)} ${command} ${flag} | head -1 >/dev/null; exit \${PIPESTATUS[0]}`], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect({ flag, status: piped.status, stderr: piped.stderr }).toEqual({ flag, status: 0, stderr: '' });
    }
  }, 60_000);
});
