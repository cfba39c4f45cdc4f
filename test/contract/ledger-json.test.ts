// rules/ledger.json, the ledger with the checks judging each rule, is generated and checked in: a change to the rules
// or the checks shows in it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LEDGER_JSON, collectChecks, ledgerJson } from '../../scripts/docs-ledger.js';

describe('rules/ledger.json', () => {
  it('is what `npm run docs:ledger` writes', async () => {
    const fresh = ledgerJson(await collectChecks());
    expect(readFileSync(LEDGER_JSON, 'utf8') === fresh, 'rules/ledger.json is stale: run `npm run docs:ledger`').toBe(true);
  }, 120_000);
});
