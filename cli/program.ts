// The `conformance` command's subcommands and options (run by cli/main.ts). What a command needs (vitest, undici,
// ajv, …) is imported when that command runs: `--version` or `validate` do not load what `run` needs.
import { Command, CommanderError, Option } from 'commander';
import { ledger } from '../rules/index.js';
import { endpointKey, endpoints } from '../rules/endpoints.js';
import { ConfigError } from '../harness/config.js';
import { UsageError } from './usage-error.js';
import { configFileOption, configFromOptions, settingOption, settingOptions, targetDefaultsWarning, type RunOptions } from './options.js';
import { SWEEP_DEFAULT_BUDGET_MS, SWEEP_MAX_PAGES } from './sweep-limits.js';
import type { SweepCommandOptions } from './sweep.js';
import { registerConfigSecrets, withoutCredentials } from '../harness/redact.js';
import { registerExpectations } from './expectations.js';
import { registerReport } from './report.js';
import { registerCoverage } from './coverage.js';
import { registerDiff } from './diff.js';
import { versionLine } from './version.js';

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function rulesForEndpoint(key: string): string[] {
  return ledger.filter((rule) => rule.endpoints.includes(key)).map((rule) => rule.id);
}

function configOf(options: RunOptions) {
  try {
    return configFromOptions(options);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** Adds `--config` and every setting's flag, but the flags the command has its own meaning for. */
function withSettings(command: Command, ownFlags: string[] = []): void {
  command.addOption(configFileOption());
  for (const option of settingOptions()) if (!ownFlags.includes(option.long!)) command.addOption(option);
}

export function buildProgram(): Command {
  const program = new Command('conformance')
    .description('Contract conformance suite for the Cloud Hosting Service API (documents 4.123.1)')
    .version(versionLine(), '--version', 'print the version and the documents version it judges against')
    .exitOverride()
    .showHelpAfterError('(run `conformance --help` for usage)')
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  const run = program
    .command('run')
    .description('run the conformance suite against a target (no --base-url: the embedded reference emulator)')
    .argument('[files...]', 'only spec files whose path contains one of these strings')
    .action(async (files: string[], options: RunOptions) => {
      const config = configOf(options);
      registerConfigSecrets(config);
      const [{ preflight }, { runSuite }] = await Promise.all([import('./preflight.js'), import('./run.js')]);
      await preflight(config);
      process.stderr.write(
        `conformance: run ${config.runId} against ${config.baseUrl ? withoutCredentials(config.baseUrl) : 'the embedded reference emulator'} (seed ${config.seed}, ${config.runs} runs per property${config.shuffle ? `, spec files shuffled with ${config.shuffle}` : ''})\n`,
      );
      process.exitCode = await runSuite(config, files, targetDefaultsWarning(options, config));
    });
  withSettings(run);
  run.addHelpText(
    'after',
    `
Examples:
  conformance run                                        # the embedded reference emulator
  conformance run part3/firewalls --rules P3.firewall    # one spec file, one area's rules
  conformance run --base-url https://api.staging.example.com --token "$TOKEN" --read-only
  conformance plan --base-url https://api.staging.example.com --token "$TOKEN"   # what a run would do, first`,
  );

  // The same flags as run, so the plan describes exactly the run those flags make.
  const plan = program
    .command('plan')
    .description(
      "print what `run` with the same flags would do, sending only the run's pre-flight reads (GET /__control, and with each token given a list it may read): the resources it would create, and which rules it would judge, skip (with the reason) or disable",
    )
    .option('--json', 'print the plan as JSON');
  withSettings(plan, ['--json']);
  plan.action(async (options: RunOptions & { json?: string | boolean }) => {
    const { json, ...rest } = options;
    const config = configOf(rest);
    registerConfigSecrets(config);
    const [{ preflight }, { planReport, printPlan }] = await Promise.all([import('./preflight.js'), import('./plan.js')]);
    // What would stop the run (a typo'd filter or token, an unreachable target) stops the plan with the same line.
    await preflight(config);
    const report = await planReport(config);
    if (json) out(JSON.stringify(report, null, 1));
    else printPlan(report, out);
  });

  program
    .command('sweep')
    .description(
      'delete what a killed run left on a target: its cleanup ledger (<out>/runs/<run id>/) and every resource labelled with its run prefix, dependants first; never a resource the suite did not create. Exit 0 nothing left, 1 something could not be deleted (e.g. a cluster still provisioning: sweep again later, or with --wait), 2 bad usage or the target refused',
    )
    .addOption(settingOption('runId', { help: 'the run to sweep (printed at the start of each run)', shownDefault: '' }))
    .option('--all-runs', 'sweep every run with a folder under <out>/runs/')
    .addOption(settingOption('baseUrl', { help: 'the API base URL the run ran against', shownDefault: '' }))
    .addOption(settingOption('token', { help: 'a full-access token', shownDefault: '' }))
    .addOption(settingOption('out', { help: 'output folder holding the runs', shownDefault: 'reports/out' }))
    .addOption(configFileOption())
    .addOption(settingOption('timeoutMs', { help: 'per-request timeout in ms', shownDefault: '10000' }))
    .addOption(settingOption('maxRps', { help: 'requests per second sweep sends at most', shownDefault: 'no cap' }))
    .addOption(
      settingOption('runBudgetMs', {
        help: `wall-clock budget: past it no request is started and what was not done is listed; each list is read up to ${SWEEP_MAX_PAGES} pages`,
        shownDefault: `${SWEEP_DEFAULT_BUDGET_MS / 60_000} minutes`,
      }),
    )
    .option(
      '--wait <ms>',
      'while resources could not be deleted yet (a cluster still provisioning, about 30 minutes), try them again at growing pauses up to a minute, for up to this long (3600000: an hour); added to the budget (default: tried once)',
    )
    .action(async (options: SweepCommandOptions) => {
      const { sweepCommand } = await import('./sweep.js');
      process.exitCode = await sweepCommand(options, out);
    });

  program
    .command('rules')
    .description('print the rule ledger')
    .option('--json', 'print a JSON array')
    .action((options: { json?: boolean }) => {
      if (options.json) return out(JSON.stringify(ledger, null, 2));
      for (const rule of ledger) out(`${rule.id.padEnd(64)} ${rule.level.padEnd(6)} ${rule.rule}`);
      out(`${ledger.length} rules`);
    });

  program
    .command('endpoints')
    .description('print the endpoint catalogue')
    .option('--json', 'print a JSON array (with the rule ids concerning each endpoint)')
    .action((options: { json?: boolean }) => {
      const rows = endpoints.map((endpoint) => ({ ...endpoint, rules: rulesForEndpoint(endpointKey(endpoint)) }));
      if (options.json) return out(JSON.stringify(rows, null, 2));
      for (const row of rows) out(`${endpointKey(row).padEnd(72)} ${(row.scopes.join(',') || row.auth).padEnd(40)} ${row.rules.length} rules`);
      out(`${rows.length} endpoints`);
    });

  program
    .command('validate')
    .description('judge recorded response bodies against what the documents say the endpoint returns')
    .addOption(new Option('--endpoint <endpoint>', 'e.g. "GET /v4/domains/{domainId}" or a concrete "GET /v4/domains/12"'))
    .addOption(new Option('--status <code>', 'HTTP status of the recorded response').argParser((value) => Number(value)))
    .option('--file <path>', 'the body (default: standard input)')
    .option('--batch <file.jsonl>', 'many bodies: one {"endpoint", "status", "body"} per line; prints one JSON verdict per line')
    .action(async (options: { endpoint?: string; status?: number; file?: string; batch?: string }) => {
      const { judgeOne, parseJson, printVerdict, readText, validateBatch } = await import('./validate.js');
      if (options.batch) {
        if (options.endpoint || options.file) throw new UsageError('--batch cannot be combined with --endpoint or --file');
        process.exitCode = validateBatch(readText(options.batch), out);
        return;
      }
      if (!options.endpoint || options.status === undefined) throw new UsageError('validate needs --endpoint and --status (or --batch FILE)');
      const body = parseJson(readText(options.file), options.file ?? 'standard input');
      process.exitCode = printVerdict(judgeOne(options.endpoint, options.status, body), out);
    });

  registerReport(program, out);
  registerExpectations(program, out);
  registerDiff(program, out);
  registerCoverage(program, out);

  program
    .command('export-cases')
    .description(
      'write the request-side boundary cases as JSON, one file per rule (accept/reject bodies per endpoint), and the contract as an OpenAPI 3.1 document',
    )
    .requiredOption('--out <dir>', 'where to write cases/<rule id>.json and openapi.json')
    .action(async (options: { out: string }) => {
      const { exportCases } = await import('./export-cases.js');
      const written = exportCases(options.out);
      out(`conformance: ${written.cases} cases of ${written.rules} rules in ${written.casesDir}, and ${written.openapi}`);
    });

  return program;
}

export async function main(argv: string[]): Promise<number> {
  process.exitCode = 0;
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`conformance: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
