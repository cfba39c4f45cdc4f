// `conformance validate`: judges recorded response bodies offline against the documents.
import { readFileSync } from 'node:fs';
import { JudgeInputError, judgeExchange, type ResponseVerdict } from '../harness/responses.js';
import { UsageError } from './usage-error.js';

export function judgeOne(endpointSpec: string, status: number, body: unknown): ResponseVerdict {
  try {
    return judgeExchange(endpointSpec, status, body);
  } catch (error) {
    if (error instanceof JudgeInputError) throw new UsageError(error.message);
    throw error;
  }
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

export function readText(file: string | undefined): string {
  try {
    return readFileSync(file ?? 0, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file ?? 'standard input'}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** Human-readable verdict lines; returns the exit code (0 valid, 1 not). */
export function printVerdict(verdict: ResponseVerdict, out: (line: string) => void): number {
  const fails = verdict.violations.filter((violation) => violation.level === 'MUST');
  const warnings = verdict.violations.filter((violation) => violation.level === 'SHOULD');
  if (verdict.judgedAgainst === 'not shown') out(`${verdict.endpoint} ${verdict.status}: the documents do not show this response; nothing to judge`);
  for (const violation of fails) out(`FAIL ${violation.rule} at ${violation.path}: ${violation.message}`);
  for (const violation of warnings) out(`WARN ${violation.rule} at ${violation.path}: ${violation.message} (inferred rule: a warning, not a failure)`);
  if (verdict.judgedAgainst !== 'not shown')
    out(
      `${verdict.endpoint} ${verdict.status}: ${fails.length ? 'invalid' : 'valid'} against ${verdict.judgedAgainst} (${fails.length} violation${fails.length === 1 ? '' : 's'}, ${warnings.length} warning${warnings.length === 1 ? '' : 's'})`,
    );
  return fails.length ? 1 : 0;
}

interface BatchLine {
  endpoint?: unknown;
  status?: unknown;
  body?: unknown;
}

/** One JSON verdict line per input line; returns the exit code (0 all valid, 1 some invalid, 2 some line unusable). */
export function validateBatch(text: string, out: (line: string) => void): number {
  let exitCode = 0;
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    if (!raw.trim()) return;
    const line = index + 1;
    try {
      const input = parseJson(raw, `line ${line}`) as BatchLine;
      if (!input || typeof input !== 'object' || typeof input.endpoint !== 'string' || typeof input.status !== 'number' || !('body' in input))
        throw new UsageError(`line ${line} must be {"endpoint": "GET /v4/…", "status": 200, "body": …}`);
      const verdict = judgeOne(input.endpoint, input.status, input.body);
      const valid = !verdict.violations.some((violation) => violation.level === 'MUST');
      if (!valid) exitCode = Math.max(exitCode, 1);
      out(
        JSON.stringify({
          line,
          endpoint: verdict.endpoint,
          status: verdict.status,
          valid,
          judgedAgainst: verdict.judgedAgainst,
          violations: verdict.violations,
        }),
      );
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      exitCode = 2;
      out(JSON.stringify({ line, error: error.message }));
    }
  });
  return exitCode;
}
