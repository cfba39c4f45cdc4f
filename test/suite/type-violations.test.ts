// The property spec files name a check after each type violation of the request schemas; a run reads them from
// specs/plan/type-violations.json instead of working them out in every worker. The table must say what the schemas and
// the generators give, or the checks a run declares would not be the ones the schemas call for.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { TYPE_VIOLATIONS_FILE, workOutTypeViolationTable } from '../../specs/properties/type-violations.js';

it('specs/plan/type-violations.json is what the request schemas and the generators give (else run `npm run plan:costs`)', async () => {
  const table = JSON.parse(readFileSync(TYPE_VIOLATIONS_FILE, 'utf8')) as unknown;
  const workedOut = await workOutTypeViolationTable();
  expect(Object.values(workedOut).flat().length).toBeGreaterThan(50);
  expect(table, 'specs/plan/type-violations.json is stale: run `npm run plan:costs`').toEqual(workedOut);
});
