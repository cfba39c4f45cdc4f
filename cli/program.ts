// The `conformance` command's subcommands and options (run by cli/main.ts).
import { Command, CommanderError, Option } from 'commander';
import { ledger } from '../rules/index.js';
import { endpointKey, endpoints } from '../rules/endpoints.js';
import { UsageError, judgeOne, parseJson, printVerdict, readText, validateBatch } from './validate.js';
import { ConfigError, configFromOptions, runSuite, type RunOptions } from './run.js';
import { REAL_TARGET_BUDGETS } from '../harness/config.js';
import { SWEEP_DEFAULT_BUDGET_MS, SWEEP_MAX_PAGES, sweepCommand, type SweepCommandOptions } from './sweep.js';
import { planReport, printPlan } from './plan.js';
import { registerConfigSecrets, withoutCredentials } from '../harness/redact.js';
import { preflight } from './preflight.js';
import { exportCases } from './export-cases.js';
import { registerExpectations } from './expectations.js';
import { registerReport } from './report.js';
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
    .option('--base-url <url>', 'the API base URL, e.g. https://api.staging.example.com')
    .option('--token <token>', 'a full-access token (unrestricted user, every scope)')
    .option('--token-scoped <scopes=token>', 'a token holding exactly these scopes, e.g. domains:read_only=abc (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--restricted-token <token>', "a restricted user's token")
    .option('--control-url <url>', 'control hooks base URL (default: probe the base URL)')
    .option('--config <file>', 'a JSON config file (flags win over the environment, which wins over the file)')
    .option('--out <dir>', 'output folder (default reports/out)')
    .option('--runs <n>', 'fast-check runs per property of valid bodies (default 100)')
    .option('--violation-runs <n>', 'fast-check runs per property of bodies breaking one rule (default 10; there are hundreds)')
    .option('--seed <n>', 'fast-check seed (default random, printed)')
    .option('--timeout <ms>', 'per-request timeout in ms (default 10000)')
    .option('--rules <ids>', 'only checks of these rule ids or id prefixes, comma-separated')
    .option('--areas <prefixes>', 'only checks of these areas, e.g. P3.firewall,P1.database')
    .option('--allow-destructive', 'also run irreversible or billable operations and changes to the account itself: account cancel, credit card, entity-transfer accept, PUT /v4/account, PUT /v4/monitor/plan, marking the account\'s events seen (default: off; always on for the embedded emulator); without it those checks report disabled')
    .option('--read-only', 'send only requests that change nothing (GET): safe against production; every check needing a write reports disabled, control hooks are not used')
    .option('--max-instances <n>', `new instances the run may create (creates and clones), or "unlimited"; beyond it a check needing more reports skip (default ${REAL_TARGET_BUDGETS.maxInstances} with --base-url, unlimited on the embedded emulator; per shard)`)
    .option('--max-databases <n>', `new database clusters the run may create, or "unlimited" (default ${REAL_TARGET_BUDGETS.maxDatabases} with --base-url, unlimited on the embedded emulator; per shard)`)
    .option('--shard <i/n>', 'run only the i-th of n slices of the spec files (vitest sharding, e.g. 2/3): a partial run, for spreading a run over CI machines')
    .option('--region <id>', 'a region of the target (default us-east)')
    .option('--vlan-region <id>', 'a VLAN-capable region (default us-east)')
    .option('--instance-type <id>', 'an instance type (default g6-standard-1)')
    .option('--larger-instance-type <id>', 'a larger instance type, for resize (default g6-standard-2)')
    .option('--other-region <id>', 'a second region (backups are bound to theirs)')
    // (not `--no-vlan-region`: commander reads a `--no-` flag as the negation of `--vlan-region`)
    .option('--region-without-vlans <id>', 'a region without VLAN support')
    .option('--spare-vlan-region <id>', 'a VLAN-capable region whose VLAN quota a check may use up')
    .option('--emulator-fault <id>', 'start the embedded emulator with this deliberate deviation (repeatable; `npm run emulator -- --list-faults` lists them)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--emulator-variation <id>', 'start the embedded emulator with this allowed choice the documents leave open, made differently (repeatable; `npm run emulator -- --list-variations` lists them)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--run-id <id>', 'run id: labels carry it as a prefix and the cleanup ledger is filed under it (default random)')
    .option('--max-rps <n>', 'requests per second the whole run sends at most (shared out among the workers; default no cap); a 429 is retried after its Retry-After either way')
    .option('--run-budget <ms>', 'wall-clock budget of the checks: past it no request is sent, the remaining checks report error, and cleanup still runs (default none)')
    .option('--consistency-window <ms>', 'reads after writes are retried for up to this long before a fail is declared (default 5000 with --base-url, 0 on the embedded emulator)')
    .option('--html <file>', 'the compliance report (default <out>/compliance.html)')
    .option('--junit <file>', 'the JUnit XML report (default <out>/junit.xml)')
    .option('--json <file>', 'the results (default <out>/results.json)')
    .option('--no-shrink', "report a property's first counterexample without shrinking it (each shrinking step sends requests: faster on a slow target)")
    .option('--no-allure', 'skip the Allure results and their single-file report (<out>/allure-report/index.html, about 2 s to render)')
    .option('--progress <mode>', 'terminal progress: tty (lines per area updated in place), plain (printed every few seconds), quiet (the summary line only), jsonl (one JSON object per finished check on standard output); default tty on a terminal, else plain')
    .option('--fail-on <level>', 'what makes the run exit 1: must (a MUST rule failed; the default) or warning (also a SHOULD rule with a finding)')
    .option('--expectations <file>', 'a JSON file of rules expected to fail (rule id → reason, or {"reason", "expires": "YYYY-MM-DD"}): their fails show as expected and do not fail the run')
    .option('--strict-expectations', 'also exit 1 when a rule the expectations file expects to fail passes')
    .argument('[files...]', 'only spec files whose path contains one of these strings')
    .action(async (files: string[], options: RunOptions) => {
      const config = configOf(options);
      registerConfigSecrets(config);
      await preflight(config);
      process.stderr.write(`conformance: run ${config.runId} against ${config.baseUrl ? withoutCredentials(config.baseUrl) : 'the embedded reference emulator'} (seed ${config.seed}, ${config.runs} runs per property)\n`);
      process.exitCode = await runSuite(config, files);
    });

  // The same flags as run, so the plan describes exactly the run those flags make.
  const plan = program
    .command('plan')
    .description('print what `run` with the same flags would do, sending nothing but the GET /__control probe: the resources it would create, and which rules it would judge, skip (with the reason) or disable')
    .option('--json', 'print the plan as JSON');
  for (const option of run.options) if (option.long !== '--json') plan.addOption(option);
  plan.action(async (options: RunOptions & { json?: string | boolean }) => {
    const { json, ...rest } = options;
    const report = await planReport(configOf(rest));
    if (json) out(JSON.stringify(report, null, 1));
    else printPlan(report, out);
  });

  program
    .command('sweep')
    .description('delete what a killed run left on a target: its cleanup ledger (<out>/runs/<run id>/) and every resource labelled with its run prefix, dependants first; never a resource the suite did not create. Exit 0 nothing left, 1 something could not be deleted (e.g. a cluster still provisioning: sweep again later), 2 bad usage or the target refused')
    .option('--run-id <id>', 'the run to sweep (printed at the start of each run)')
    .option('--all-runs', 'sweep every run with a folder under <out>/runs/')
    .option('--base-url <url>', 'the API base URL the run ran against')
    .option('--token <token>', 'a full-access token')
    .option('--out <dir>', 'output folder holding the runs (default reports/out)')
    .option('--config <file>', 'a JSON config file, as for run')
    .option('--timeout <ms>', 'per-request timeout in ms (default 10000)')
    .option('--max-rps <n>', 'requests per second sweep sends at most (default no cap)')
    .option('--run-budget <ms>', `wall-clock budget: past it no request is started and what was not done is listed (default ${SWEEP_DEFAULT_BUDGET_MS / 60_000} minutes); each list is read up to ${SWEEP_MAX_PAGES} pages`)
    .action(async (options: SweepCommandOptions) => {
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
    .action((options: { endpoint?: string; status?: number; file?: string; batch?: string }) => {
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

  program
    .command('export-cases')
    .description('write the request-side boundary cases as JSON, one file per rule (accept/reject bodies per endpoint), and the contract as an OpenAPI 3.1 document')
    .requiredOption('--out <dir>', 'where to write cases/<rule id>.json and openapi.json')
    .action((options: { out: string }) => {
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
