// `conformance export-cases --out DIR`: the request-side cases as data (DIR/cases/<rule id>.json, each an array of
// {rule, endpoint, body, expect, field, base}) and the contract as an OpenAPI 3.1 document (DIR/openapi.json), so
// other languages run the same cases in their unit tests and other tools read the same contract.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { casesByRule } from '../harness/request-cases.js';
import { openApiDocument } from '../harness/openapi.js';
import { UsageError } from './usage-error.js';

export interface ExportSummary {
  cases: number;
  rules: number;
  casesDir: string;
  openapi: string;
}

export function exportCases(out: string): ExportSummary {
  const casesDir = join(out, 'cases');
  const openapi = join(out, 'openapi.json');
  const write = (file: string, value: unknown) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  const byRule = casesByRule();
  try {
    mkdirSync(casesDir, { recursive: true });
    for (const [rule, cases] of byRule) write(join(casesDir, `${rule}.json`), cases);
    write(openapi, openApiDocument());
  } catch (error) {
    throw new UsageError(`cannot write to ${out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return { cases: [...byRule.values()].reduce((sum, cases) => sum + cases.length, 0), rules: byRule.size, casesDir, openapi };
}
