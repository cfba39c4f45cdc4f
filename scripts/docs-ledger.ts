// `npm run docs:ledger` writes rules/ledger.json: every rule of the ledger, where it lives in its document, and the
// checks that judge it, so that a pull request shows the conformance surface it changes
// (test/suite/collection.test.ts fails while the file is stale).
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import { resolveConfig } from '../harness/config.js';
import { embeddedTargetInfo } from '../harness/embedded.js';
import { ledger } from '../rules/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const LEDGER_JSON = join(ROOT, 'rules/ledger.json');

/** A check of the suite: its spec file, its key (`<spec file> > <describe…> > <test name>`) and the rule ids it names. */
export interface CollectedCheck {
  file: string;
  key: string;
  rules: string[];
}

/** Every check of the spec files, declared and never run (test/suite/collection.test.ts: every spec file collects). */
export async function collectChecks(): Promise<CollectedCheck[]> {
  const vitest = await createVitest('test', {
    config: join(ROOT, 'specs/vitest.config.ts'),
    root: ROOT,
    run: true,
    watch: false,
    reporters: [{}],
    globalSetup: [],
    maxWorkers: 1,
  });
  try {
    // Nothing is sent to this address: collection only declares the checks.
    vitest.projects[0]!.provide('target', embeddedTargetInfo(resolveConfig({}), 'http://127.0.0.1:9', 'collecting', { maxRpsPerWorker: null, deadline: null }));
    const collected = await vitest.collectTests(await vitest.globTestSpecifications());
    const problems = collected.testModules.flatMap((module) => module.errors().map((error) => `${module.moduleId}: ${error.message}`));
    if (problems.length) throw new Error(`the spec files do not collect:\n${problems.join('\n')}`);
    return collected.testModules.flatMap((module) => {
      const file = relative(ROOT, module.moduleId);
      return [...module.children.allTests()].flatMap((test) => {
        const ids = /^\[([^\]]+)\] /.exec(test.name)?.[1];
        return ids ? [{ file, key: `${file} > ${test.fullName}`, rules: ids.split(' ') }] : [];
      });
    });
  } finally {
    await vitest.close();
  }
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** The text of rules/ledger.json: the rules in ledger order, each with the checks naming it, sorted by key. */
export function ledgerJson(checks: readonly CollectedCheck[]): string {
  const entries = ledger.map((rule) => ({
    id: rule.id,
    part: rule.part,
    document: rule.document,
    anchor: rule.anchor,
    section: rule.section,
    level: rule.level,
    rule: rule.rule,
    quotes: rule.quotes,
    endpoints: rule.endpoints,
    needs: rule.needs,
    check: rule.check,
    // Each check as `<spec file> > <describe…> > <title>`: its key without the rule ids its name starts with.
    checks: checks
      .filter((check) => check.rules.includes(rule.id))
      .sort(byKey)
      .map(({ key }) => key.replace(/\[[^\]]+\] (?=[^>]*$)/, '')),
  }));
  return `${JSON.stringify(entries, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const checks = await collectChecks();
  writeFileSync(LEDGER_JSON, ledgerJson(checks));
  process.stdout.write(`rules/ledger.json: ${ledger.length} rules, ${checks.length} checks\n`);
}
