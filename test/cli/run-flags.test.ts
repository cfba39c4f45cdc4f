// The safety and sharding flags of `conformance run`: where their values come from (flags over CONFORMANCE_* over
// the config file), how each bad value is refused (one line, exit 2), the defaults, --help, a sharded run, more
// workers and a shuffled order.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../cli/program.js';
import { configFromOptions, type RunOptions } from '../../cli/run.js';
import { ConfigError, REAL_TARGET_BUDGETS, defaultedOnTargetWarning, embeddedDefaults, resolveConfig, settingFlag } from '../../harness/config.js';
import type { Results } from '../../reports/results.js';
import { conformance, tempDir } from '../safety/support.js';

const dir = tempDir('run-flags');

function configFile(content: unknown): string {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const TARGET = { baseUrl: 'https://api.example.com', token: 'abcdef' };

/** The settings `conformance run` would use for these flags, parsed by the real command definition. */
function settingsOfFlags(flags: string[]) {
  const run = buildProgram().commands.find((command) => command.name() === 'run')!;
  run.parseOptions(flags);
  return configFromOptions(run.opts<RunOptions>(), {});
}

describe('run flags: sources and defaults', () => {
  it('each region flag sets its own setting (a `--no-` flag would negate its namesake)', () => {
    const regions = ['--region', 'r1', '--vlan-region', 'r2', '--other-region', 'r3', '--region-without-vlans', 'r4', '--spare-vlan-region', 'r5'];
    expect(settingsOfFlags(regions)).toMatchObject({ region: 'r1', vlanRegion: 'r2', otherRegion: 'r3', noVlanRegion: 'r4', spareVlanRegion: 'r5' });
    expect(settingsOfFlags(['--region-without-vlans', 'us-west'])).toMatchObject({ vlanRegion: null, noVlanRegion: 'us-west' });
    // only true switches are negated
    const negated = buildProgram()
      .commands.find((command) => command.name() === 'run')!
      .options.filter((option) => option.negate)
      .map((option) => option.long);
    expect(negated.sort()).toEqual(['--no-allure', '--no-shrink']);
  });

  it('takes each setting from the flag over the environment over the config file', () => {
    const file = configFile({ readOnly: true, maxInstances: 3, maxDatabases: 1, shard: '1/4' });
    expect(resolveConfig({ file })).toMatchObject({ readOnly: true, maxInstances: 3, maxDatabases: 1, shard: '1/4' });
    const env = { CONFORMANCE_READ_ONLY: 'false', CONFORMANCE_MAX_INSTANCES: '5', CONFORMANCE_MAX_DATABASES: 'unlimited', CONFORMANCE_SHARD: '2/4' };
    expect(resolveConfig({ file, env })).toMatchObject({ readOnly: false, maxInstances: 5, maxDatabases: null, shard: '2/4' });
    expect(resolveConfig({ file, env, flags: { readOnly: 'true', maxInstances: '0', shard: '4/4' } })).toMatchObject({
      readOnly: true,
      maxInstances: 0,
      maxDatabases: null,
      shard: '4/4',
    });
  });

  it('budgets are unlimited on the embedded emulator and bounded on a target given by URL unless set', () => {
    expect(resolveConfig({})).toMatchObject({ maxInstances: null, maxDatabases: null, readOnly: false, shard: null });
    expect(resolveConfig({ flags: TARGET })).toMatchObject(REAL_TARGET_BUDGETS);
    expect(resolveConfig({ flags: { ...TARGET, maxInstances: 'unlimited', maxDatabases: '2' } })).toMatchObject({ maxInstances: null, maxDatabases: 2 });
  });

  it("a target given by URL has no VLAN region unless named (the embedded emulator seed's us-east), and a warning names the region and types it did not", () => {
    const regionSettings = ['otherRegion', 'vlanRegion', 'noVlanRegion', 'spareVlanRegion'] as const;
    const onTarget = resolveConfig({ flags: TARGET });
    for (const key of regionSettings) expect(onTarget[key], key).toBeNull();
    expect(embeddedDefaults(resolveConfig({}))).toMatchObject({
      vlanRegion: 'us-east',
      otherRegion: 'us-west',
      noVlanRegion: 'us-west',
      spareVlanRegion: 'eu-central',
    });
    expect(embeddedDefaults(resolveConfig({ flags: { vlanRegion: 'eu-central' } }))).toMatchObject({ vlanRegion: 'eu-central' });
    // each skip message names the real flag: `--region-without-vlans`, not `--no-vlan-region`
    expect(regionSettings.map(settingFlag)).toEqual(['--other-region', '--vlan-region', '--region-without-vlans', '--spare-vlan-region']);
    // region and instance types still default to the seed's on a real target: one warning line names them
    expect(defaultedOnTargetWarning({}, resolveConfig({}))).toBeNull();
    const warning = defaultedOnTargetWarning({ flags: TARGET }, onTarget)!;
    expect(warning.split('\n')).toHaveLength(1);
    expect(warning).toContain('--region us-east, --instance-type g6-standard-1, --larger-instance-type g6-standard-2');
    const env = { CONFORMANCE_REGION: 'us-east' };
    const some = defaultedOnTargetWarning(
      { env, flags: { ...TARGET, instanceType: 'g6-nanode-1' } },
      resolveConfig({ env, flags: { ...TARGET, instanceType: 'g6-nanode-1' } }),
    )!;
    expect(some).toContain('(--larger-instance-type)');
    expect(some).not.toContain('--region ');
    const all = { ...TARGET, region: 'eu-central', instanceType: 'a', largerInstanceType: 'b' };
    expect(defaultedOnTargetWarning({ flags: all }, resolveConfig({ flags: all }))).toBeNull();
  });

  it('takes headers every request carries from flags (one a line), the environment and a config file object', () => {
    expect(resolveConfig({ flags: { ...TARGET, headers: 'X-Api-Key: k1 = 2\nCF-Access-Client-Id:id' } }).headers).toEqual({
      'X-Api-Key': 'k1 = 2',
      'CF-Access-Client-Id': 'id',
    });
    expect(resolveConfig({ flags: TARGET, env: { CONFORMANCE_HEADERS: 'X-Api-Key: from-env' } }).headers).toEqual({ 'X-Api-Key': 'from-env' });
    expect(resolveConfig({ flags: TARGET, file: configFile({ headers: { 'X-Api-Key': 'a;b=c' } }) }).headers).toEqual({ 'X-Api-Key': 'a;b=c' });
    expect(resolveConfig({ flags: TARGET }).headers).toEqual({});
    for (const [headers, message] of [
      ['Authorization: Bearer x', /header Authorization is the suite's own to write/],
      ['content-type: text/plain', /header content-type is the suite's own/],
      ['X Api: 1', /header must be "Name: value"/],
      ['X-Api-Key: a\u0007b', /no control character in its value/],
    ] as const)
      expect(() => resolveConfig({ flags: { ...TARGET, headers } }), headers).toThrow(message);
  });

  it('takes a token as the Authorization header carries it: trimmed, "=" kept; refused with its scheme or broken, never shown', () => {
    expect(resolveConfig({ flags: { baseUrl: TARGET.baseUrl }, env: { CONFORMANCE_TOKEN: 'tok-123456\n' } }).token).toBe('tok-123456');
    expect(resolveConfig({ flags: { ...TARGET, scopedTokens: 'domains:read_only=YWJjZGVm==' } }).scopedTokens).toEqual({ 'domains:read_only': 'YWJjZGVm==' });
    for (const [flags, message] of [
      [{ token: 'Bearer tok-secret' }, /^flags \(token\): token is the token alone, without "Bearer "/],
      [{ token: 'tok secret' }, /^flags \(token\): token must be one word of visible characters \(it was broken by whitespace/],
      [{ token: 'abc', restrictedToken: 'bearer tok-secret' }, /restricted token is the token alone/],
      [{ token: 'abc', scopedTokens: 'domains:read_only=Bearer tok-secret' }, /the token of domains:read_only is the token alone/],
    ] as const) {
      expect(() => resolveConfig({ flags: { baseUrl: TARGET.baseUrl, ...flags } }), JSON.stringify(flags)).toThrow(message);
      expect(() => resolveConfig({ flags: { baseUrl: TARGET.baseUrl, ...flags } })).not.toThrow(/secret/);
    }
  });

  it('refuses each bad value with one line naming the source and the setting', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ shard: '0/3' }, /flags \(shard\): shard is i\/n with 1 <= i <= n \(e\.g\. 2\/3\), got "0\/3"/],
      [{ shard: '4/3' }, /got "4\/3"/],
      [{ shard: '1/0' }, /got "1\/0"/],
      [{ shard: 'half' }, /got "half"/],
      [{ maxInstances: '-1' }, /flags \(maxInstances\): max instances must be an integer from 0 to 999999 or "unlimited", got "-1"/],
      [{ maxDatabases: '1.5' }, /max databases must be .* got "1\.5"/],
      [{ readOnly: 'maybe' }, /flags \(readOnly\): read-only is true or false, got "maybe"/],
      [{ workers: '0' }, /flags \(workers\): workers must be an integer from 1 to 32, got "0"/],
      [
        { ...TARGET, baseUrl: 'https://api.example.com/v4/' },
        /^flags \(baseUrl\): base URL must not end with the version \(https:\/\/api\.example\.com\/v4\/\): every path the suite sends starts with \/v4, give https:\/\/api\.example\.com$/,
      ],
      [{ ...TARGET, baseUrl: 'https://api.example.com/chs/v4beta' }, /give https:\/\/api\.example\.com\/chs$/],
      [{ ...TARGET, baseUrl: 'https://api.example.com/?region=eu' }, /base URL must hold no query or fragment/],
      [{ readOnly: 'true', allowDestructive: 'true' }, /--read-only and --allow-destructive contradict each other/],
      [{ region: 'eu-central', otherRegion: 'eu-central' }, /--other-region names the run's own region \(eu-central\)/],
    ];
    for (const [flags, message] of bad) expect(() => resolveConfig({ flags }), JSON.stringify(flags)).toThrow(message);
    expect(resolveConfig({ flags: { ...TARGET, baseUrl: 'https://api.example.com/chs/v4-gateway/' } }).baseUrl).toBe('https://api.example.com/chs/v4-gateway');
    expect(() => resolveConfig({ env: { CONFORMANCE_MAX_INSTANCES: 'lots' } })).toThrow(/^environment \(maxInstances\)/);
    expect(() => resolveConfig({ file: configFile({ shard: 3 }) })).toThrow(ConfigError);
  });
});

describe('run flags on the command line', () => {
  it('exits 2 with one clear line for a bad flag, environment value or config file', async () => {
    const cases: Array<{ args: string[]; env?: NodeJS.ProcessEnv; message: RegExp }> = [
      { args: ['--shard', '4/3'], message: /^conformance: flags \(shard\): shard is i\/n/ },
      { args: ['--max-instances', 'lots'], message: /^conformance: flags \(maxInstances\): max instances must be/ },
      { args: [], env: { CONFORMANCE_READ_ONLY: 'maybe' }, message: /^conformance: environment \(readOnly\): read-only is true or false/ },
      { args: ['--read-only', '--allow-destructive'], message: /^conformance: --read-only and --allow-destructive contradict/ },
      { args: ['--config', join(dir, 'missing.json')], message: /^conformance: cannot read config file .*missing\.json: ENOENT/ },
    ];
    const results = await Promise.all(cases.map((each) => conformance(['run', ...each.args], { env: each.env ?? {} })));
    results.forEach((result, index) => {
      const { args, message } = cases[index]!;
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr, args.join(' ')).toMatch(message);
    });
  }, 60_000);

  it('--help documents every safety and sharding flag, with the defaults', async () => {
    const help = await conformance(['run', '--help']);
    expect(help.code).toBe(0);
    const text = help.stdout.replace(/\s+/g, ' ');
    for (const flag of ['--read-only', '--allow-destructive', '--max-instances <n>', '--max-databases <n>', '--shard <i/n>', '--workers <n>'])
      expect(text).toContain(flag);
    expect(text).toContain(`default ${REAL_TARGET_BUDGETS.maxInstances} with --base-url, unlimited on the embedded emulator`);
    expect(text).toMatch(/account cancel, credit card, entity-transfer accept/);
  }, 30_000);

  it('--shard i/n runs one slice of the spec files and says it is a partial run', async () => {
    const shard = (index: number) => {
      const out = join(dir, `shard-${index}`);
      return conformance([
        'run',
        '--shard',
        `${index}/2`,
        '--out',
        out,
        '--seed',
        '5',
        '--no-allure',
        '--progress',
        'quiet',
        'part3/firewalls',
        'part3/domains',
      ]).then((result) => ({ ...result, results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results }));
    };
    const [shards, empty] = await Promise.all([
      Promise.all([shard(1), shard(2)]),
      conformance(['run', '--shard', '3/3', '--out', join(dir, 'shard-empty'), '--no-allure', '--progress', 'quiet', 'part3/firewalls', 'part3/domains']),
    ]);
    // Three slices of two spec files: one of them would be empty.
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/--shard <count> must be a smaller than count of test files[\s\S]*conformance: 1 error\(s\) outside the checks/);
    const areasJudged = shards.map(({ results }) => [
      ...new Set(
        results.rules
          .filter((rule) => rule.checks.some((check) => check.verdict === 'pass'))
          .map((rule) => /^P3\.(firewall|domain)\./.exec(rule.id)?.[1])
          .filter(Boolean),
      ),
    ]);
    shards.forEach(({ code, stdout, results }, index) => {
      expect(code).toBe(0);
      expect(stdout).toContain(`— shard ${index + 1}/2: a partial run, only this shard's spec files`);
      expect(results.run.shard).toBe(`${index + 1}/2`);
      expect(areasJudged[index]).toHaveLength(1);
    });
    expect(areasJudged.flat().sort()).toEqual(['domain', 'firewall']);
  }, 120_000);

  it('--workers <n> runs that many spec files at once', async () => {
    // Three spec files on three workers all start before any ends; on the default two, the third starts when one ends.
    const out = join(dir, 'workers-3');
    const files = ['part3/firewalls', 'part3/records', 'part3/domains'];
    const result = await conformance(['run', '--workers', '3', '--out', out, '--seed', '5', '--no-allure', '--progress', 'jsonl', ...files]);
    expect(result.code, result.stderr).toBe(0);
    const order = result.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { file: string }).file);
    const ran = [...new Set(order)];
    expect(ran.sort()).toEqual(files.map((file) => `specs/${file}.spec.ts`).sort());
    const lastFirstVerdict = Math.max(...ran.map((file) => order.indexOf(file)));
    const firstLastVerdict = Math.min(...ran.map((file) => order.lastIndexOf(file)));
    expect(lastFirstVerdict, 'every file judged something before any file ended').toBeLessThan(firstLastVerdict);
  }, 120_000);

  it('--shuffle <seed> runs the spec files in an order drawn from the seed, the same for the same seed, and records it', async () => {
    // Cheap rules of four spec files; a run narrowed to rules has one worker, so the files finish in the order they ran.
    const rules = 'P2.tag-create.label.required,P3.domain-create.domain.required,P1.oauth-client-create.label.required,P3.firewall.status.enum';
    const shuffled = async (seed: number, take: number) => {
      const out = join(dir, `shuffle-${seed}-${take}`);
      const result = await conformance(['run', '--rules', rules, '--shuffle', String(seed), '--out', out, '--no-allure', '--progress', 'jsonl']);
      const files = result.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { file: string }).file)
        .filter((file, index, all) => file !== all[index - 1]);
      return { ...result, files, results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results };
    };
    const runs = await Promise.all([shuffled(1, 1), shuffled(1, 2), shuffled(2, 1), shuffled(3, 1)]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(new Set(run.files).size, 'each file ran once, whole').toBe(run.files.length);
      expect(run.stderr).toContain(`spec files shuffled with ${run.results.run.shuffle}`);
    }
    expect(runs.map((run) => run.results.run.shuffle)).toEqual([1, 1, 2, 3]);
    expect(runs[0]!.files).toHaveLength(4);
    expect(runs[1]!.files).toEqual(runs[0]!.files);
    expect(new Set(runs.map((run) => run.files.join())).size, 'seeds 1, 2 and 3 give three orders').toBe(3);
  }, 120_000);
});

describe('the output folder of an earlier run', () => {
  it("holds none of the earlier run's Allure results afterwards, nor what an interrupted run left to delete", async () => {
    const out = join(dir, 'reused');
    mkdirSync(join(out, 'allure-results'), { recursive: true });
    writeFileSync(join(out, 'allure-results', 'earlier-result.json'), '{}');
    mkdirSync(join(out, 'allure-results.old-999', 'nested'), { recursive: true });
    const run = await conformance(['run', '--out', out, '--rules', 'P2.tag-create.label.required', '--progress', 'quiet']);
    expect(run.code).toBe(0);
    expect(readdirSync(out).filter((name) => name.startsWith('allure-results'))).toEqual(['allure-results']);
    const results = readdirSync(join(out, 'allure-results'));
    expect(results).not.toContain('earlier-result.json');
    expect(results.filter((name) => name.endsWith('-result.json')).length).toBeGreaterThan(0);
  }, 60_000);
});
