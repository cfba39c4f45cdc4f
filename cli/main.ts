// The `conformance` command.
import { Command, CommanderError, Option } from 'commander';
import { ledger } from '../rules/index.js';
import { endpointKey, endpoints } from '../rules/endpoints.js';
import { UsageError, judgeOne, parseJson, printVerdict, readText, validateBatch } from './validate.js';

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

process.exitCode = await main(process.argv.slice(2));
