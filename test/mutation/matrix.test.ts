// The mutation gate: every emulator fault is detected by the suite as a `fail` of the MUST rule the fault breaks (a
// `warning` of it for a SHOULD rule: the few faults of inferred rules prove those checks can see a divergence too).
// An undetected fault is a hole in the suite: strengthen the suite, never weaken or drop the fault.
// `npm test` runs the whole matrix (about 6 minutes on two cores, beside the rest); MUTATION_SAMPLE=N runs a deterministic sample of N
// faults spread over the catalogue instead, for a quicker local round.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../emulator/faults/index.js';
import { renderMutationHtml, type FaultOutcome } from '../../reports/mutation.js';
import { ruleById } from '../../rules/index.js';
import { expectedStatus, MATRIX_RUNS, runMatrix, sampleFaults } from './matrix.js';

const REPORTS = 'reports/out';
const sample = process.env['MUTATION_SAMPLE'] ?? 'all';
if (sample !== 'all' && !/^[1-9]\d*$/.test(sample)) throw new Error(`MUTATION_SAMPLE is "all" or a positive number of faults, not "${sample}"`);
const faults = sample === 'all' ? FAULTS : sampleFaults(FAULTS, Number(sample));
const outcomes = new Map<string, FaultOutcome>();

describe('the fault catalogue', () => {
  it('holds at least 150 faults spread over the three documents', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(150);
    for (const part of ['P1', 'P2', 'P3']) expect(FAULTS.filter((fault) => fault.rule.startsWith(`${part}.`)).length, part).toBeGreaterThanOrEqual(30);
  });

  it.each(FAULTS.map((fault) => [fault.id, fault] as const))('%s breaks a testable rule of the ledger', (_, fault) => {
    const rule = ruleById.get(fault.rule);
    expect(rule, `no rule ${fault.rule} in the ledger`).toBeDefined();
    expect(rule!.check).not.toMatch(/^untestable/);
    expect(fault.does.length).toBeGreaterThan(10);
  });
});

describe('the kill matrix', () => {
  beforeAll(async () => {
    const matrix = await runMatrix({ faults, seed: 20261121, ...MATRIX_RUNS });
    for (const outcome of matrix.outcomes) outcomes.set(outcome.id, outcome);
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(join(REPORTS, 'mutation.json'), `${JSON.stringify(matrix, null, 2)}\n`);
    writeFileSync(join(REPORTS, 'mutation.html'), renderMutationHtml(matrix));
  }, 1_800_000); // a backstop only: about 4 minutes on a quiet 2-core machine; CI shares its cores with the rest of npm test

  it('proves SHOULD rules too: some faults break one and expect a warning', () => {
    expect(FAULTS.filter((fault) => expectedStatus(fault) === 'warning').length).toBeGreaterThanOrEqual(2);
  });

  // A MUST rule's fault must be a `fail` of that rule; a SHOULD rule's a `warning` of it (a SHOULD rule never fails).
  it.each(faults.map((fault) => [fault.id, fault] as const))('%s is detected with its own rule id', (id, fault) => {
    const outcome = outcomes.get(id)!;
    expect(outcome.problem ?? '', 'the run could not be judged').toBe('');
    expect(outcome.ruleStatus, `the suite gave ${outcome.rule} "${outcome.ruleStatus}"`).toBe(expectedStatus(fault));
    expect(outcome.detectedBy.length).toBeGreaterThan(0);
  });
});
