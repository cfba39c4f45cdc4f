// The `conformance` command.
import { Command, CommanderError, Option } from 'commander';
import { ledger } from '../rules/index.js';
import { endpointKey, endpoints } from '../rules/endpoints.js';
import { UsageError, judgeOne, parseJson, printVerdict, readText, validateBatch } from './validate.js';
import { ConfigError, configFromOptions, runSuite, type RunOptions } from './run.js';

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function rulesForEndpoint(key: string): string[] {
  return ledger.filter((rule) => rule.endpoints.includes(key)).map((rule) => rule.id);
}

export function buildProgram(): Command {
  const program = new Command('conformance')
    .description('Contract conformance suite for the Cloud Hosting Service API (documents 4.123.1)')
    .exitOverride()
    .showHelpAfterError('(run `conformance --help` for usage)')
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  program
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
    .option('--allow-destructive', 'also run irreversible or billable operations (account cancel, credit card, transfer accept)')
    .option('--region <id>', 'a region of the target (default us-east)')
    .option('--vlan-region <id>', 'a VLAN-capable region (default us-east)')
    .option('--instance-type <id>', 'an instance type (default g6-standard-1)')
    .option('--larger-instance-type <id>', 'a larger instance type, for resize (default g6-standard-2)')
    .option('--other-region <id>', 'a second region (backups are bound to theirs)')
    .option('--no-vlan-region <id>', 'a region without VLAN support')
    .option('--spare-vlan-region <id>', 'a VLAN-capable region whose VLAN quota a check may use up')
    .option('--emulator-fault <id>', 'start the embedded emulator with this deliberate deviation (repeatable; `npm run emulator -- --list-faults` lists them)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--run-id <id>', 'run id: labels carry it as a prefix and the cleanup ledger is filed under it (default random)')
    .argument('[files...]', 'only spec files whose path contains one of these strings')
    .action(async (files: string[], options: RunOptions) => {
      let config;
      try {
        config = configFromOptions(options);
      } catch (error) {
        if (error instanceof ConfigError) throw new UsageError(error.message);
        throw error;
      }
      process.stderr.write(`conformance: run ${config.runId} against ${config.baseUrl ?? 'the embedded reference emulator'} (seed ${config.seed}, ${config.runs} runs per property)\n`);
      process.exitCode = await runSuite(config, files);
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

  return program;
}

export async function main(argv: string[]): Promise<number> {
  process.exitCode = 0;
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError) {
      process.stderr.write(`conformance: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

// Vitest leaves worker threads winding down for seconds after a run: exit as soon as the verdict is known.
process.exit(await main(process.argv.slice(2)));
