// Nothing typed wrong is ever green: a filter matching no rule, an unknown emulator fault, an unreachable target, a
// token the target refuses and a failed setup each end in exit 2 with one line (a plan of such a run too); a closed standard output ends the run
// cleanly; the embedded emulator never outlives the command, even one killed by SIGKILL.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../hostile/fake-servers.js';
import { ROOT, conformance, tempDir } from '../safety/support.js';
import { TYPESCRIPT_WITH_VITEST } from '../typescript-child.js';

const dir = tempDir('nothing-green');
const BIN = join(ROOT, 'bin/conformance.js');
let server: FakeServer | undefined;
afterAll(async () => server?.close());

const oneLine = (stderr: string) => stderr.split('\n').filter((line) => line.trim() && !/^npm warn/.test(line));

describe('typos exit 2 with one line, before any request', () => {
  it('a --rules or --areas filter matching no rule, an unknown emulator fault', async () => {
    server = await startFakeServer((_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const target = ['--base-url', server.url, '--token', 'typo-token-0001'];
    const cases: Array<[string[], RegExp]> = [
      [['--rules', 'P9.nope', ...target], /^conformance: --rules P9\.nope matches no rule of the ledger/],
      [['--areas', 'Zzz', ...target], /^conformance: --areas Zzz matches no rule of the ledger/],
      [['--rules', 'P3.firewall,P3.firewal', ...target], /^conformance: --rules P3\.firewal matches no rule/],
      [['--emulator-fault', 'NOPE'], /^conformance: unknown emulator fault NOPE \(`npm run emulator -- --list-faults` lists them\)$/],
    ];
    // `plan` stops with the run's line: a plan of a typo'd run is no plan of the run meant.
    const commands = cases.flatMap(([args, message]) => ['run', 'plan'].map((command): [string[], RegExp] => [[command, '--out', dir, ...args], message]));
    const results = await Promise.all(commands.map(([args]) => conformance(args)));
    results.forEach((result, index) => {
      const [args, message] = commands[index]!;
      expect(result.code, args.join(' ')).toBe(2);
      expect(oneLine(result.stderr), args.join(' ')).toEqual([expect.stringMatching(message)]);
      expect(result.stdout, args.join(' ')).toBe('');
    });
    expect(server.seen).toEqual([]);
  }, 60_000);

  it('an unreachable target: one pre-flight request, one line, within 5 s', async () => {
    const closed = await startFakeServer(() => {});
    const url = closed.url;
    await closed.close();
    for (const command of ['run', 'plan']) {
      const started = performance.now();
      const result = await conformance([command, '--out', dir, '--base-url', url, '--token', 'typo-token-0001']);
      expect(performance.now() - started, command).toBeLessThan(5000);
      expect(result.code, command).toBe(2);
      expect(oneLine(result.stderr), command).toEqual([expect.stringMatching(/^conformance: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/)]);
    }
  }, 30_000);

  it('a token the target refuses (a typo), the full-access one or another given: one line, nothing written', async () => {
    const RIGHT = ['right-token-0001', 'right-scoped-0002', 'right-restricted-0003'].map((token) => `Bearer ${token}`);
    const refusing = await startFakeServer((request, response) => {
      const served = RIGHT.includes(request.headers.authorization ?? '');
      response.writeHead(served ? 200 : 401, { 'content-type': 'application/json' }).end(served ? '{"data":[]}' : '{"errors":[{"reason":"Invalid Token"}]}');
    });
    const target = ['run', '--out', dir, '--base-url', refusing.url];
    const given = ['--token', 'right-token-0001', '--token-scoped', 'domains:read_only=right-scoped-0002', '--restricted-token', 'right-restricted-0003'];
    const again = 'give it again (every check using it would judge that refusal), or leave it out to run without it';
    const cases: Array<[string[], string]> = [
      [
        ['--token', 'rigth-token-0001'],
        'the token was refused: GET /v4/account answered 401, GET /v4/domains answered 401; give a full-access token of an unrestricted user (--token or CONFORMANCE_TOKEN), and --header if a gateway in front of the target wants one of its own',
      ],
      [
        [...given, '--token-scoped', 'events:read_only=rigth-scoped-0002'],
        `the token given for events:read_only (--token-scoped) was refused: GET /v4/account/events answered 401 with it, 200 with --token; ${again}`,
      ],
      [
        [...given, '--restricted-token', 'rigth-restricted-0003'],
        `the restricted user's token (--restricted-token) was refused: GET /v4/compute/instances answered 401 with it, 200 with --token; ${again}`,
      ],
    ];
    try {
      for (const [args, line] of cases) {
        const outcome = await conformance([...target, ...args]);
        expect(outcome.code, args.join(' ')).toBe(2);
        expect(oneLine(outcome.stderr), args.join(' ')).toEqual([`conformance: ${line}`]);
      }
      const plan = await conformance(['plan', ...target.slice(1), ...cases[0]![0]]);
      expect(plan.code).toBe(2);
      expect(oneLine(plan.stderr)).toEqual([`conformance: ${cases[0]![1]}`]);
      expect(refusing.seen.filter((request) => request.method !== 'GET' || !/^\/(__control|v4\/)/.test(request.path))).toEqual([]);
    } finally {
      await refusing.close();
    }
  }, 60_000);

  it('a failed global setup is exit 2 with its reason, and the reports say nothing was judged', async () => {
    const out = join(dir, 'setup');
    const child = spawn(process.execPath, [...TYPESCRIPT_WITH_VITEST, 'test/cli/scripts/setup-fails.mts', out], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/^conformance: the run's setup failed: the embedded emulator exited \(2\): emulator: unknown fault NOPE.*: nothing was judged$/m);
    expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).setupError).toMatch(/unknown fault NOPE/);
    expect(readFileSync(join(out, 'compliance.html'), 'utf8')).not.toContain('the target conforms');
  }, 60_000);
});

/** Pids of the emulators started by process `parent` (from /proc): from the cached bundle, or from the sources through tsx. */
function emulatorsOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === parent && /chs-conformance\/emulator-[0-9a-f]+\.mjs|emulator\/main\.ts/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
          ? [Number(pid)]
          : [];
      } catch {
        return [];
      }
    });
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** A run against the embedded emulator, until its first line of JSON progress on standard output. */
function startRun(out: string) {
  const child = spawn(process.execPath, [BIN, 'run', '--out', out, '--no-allure', '--progress', 'jsonl', '--areas', 'P3.domain', 'specs/part3/domains'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const firstLine = new Promise<string>((resolve) => {
    let stdout = '';
    child.stdout.on('data', function onData(chunk: Buffer) {
      stdout += chunk.toString();
      if (stdout.includes('\n')) {
        child.stdout.off('data', onData);
        resolve(stdout.split('\n')[0]!);
      }
    });
  });
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, firstLine, closed, stderr: () => stderr };
}

describe('however the command ends', () => {
  it('a closed standard output (`| head -1`) stops the run cleanly: no EPIPE crash, the emulator gone', async () => {
    const run = startRun(join(dir, 'epipe'));
    expect(JSON.parse(await run.firstLine)).toHaveProperty('verdict');
    const emulators = emulatorsOf(run.child.pid!);
    run.child.stdout.destroy();
    expect(await run.closed).toBe(141);
    expect(run.stderr()).toMatch(/standard output was closed/);
    expect(run.stderr()).not.toMatch(/EPIPE|Unhandled|^\s+at /m);
    expect(emulators).toHaveLength(1);
    expect(emulators.filter(alive)).toEqual([]);
  }, 60_000);

  it('SIGKILL: the embedded emulator notices its parent is gone and exits', async () => {
    const run = startRun(join(dir, 'sigkill'));
    await run.firstLine;
    const emulators = emulatorsOf(run.child.pid!);
    expect(emulators).toHaveLength(1);
    run.child.kill('SIGKILL');
    await run.closed;
    const until = Date.now() + 5000;
    while (emulators.some(alive) && Date.now() < until) await sleep(100);
    expect(emulators.filter(alive)).toEqual([]);
  }, 60_000);
});
