// Vitest reporter that turns the suite's checks into results.json (and a one-line summary).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { fromEnv } from '../harness/config.js';
import { buildResults, type CheckOutcome } from './results.js';

export default class ResultsReporter implements Reporter {
  private started = new Date().toISOString();

  onTestRunStart(): void {
    this.started = new Date().toISOString();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const config = fromEnv();
    const outcomes: CheckOutcome[] = [];
    for (const module of modules) {
      const file = relative(process.cwd(), module.moduleId);
      const moduleErrors = module.errors();
      if (moduleErrors.length) outcomes.push({ name: `(spec file could not run) ${file}`, file, verdict: 'error', message: moduleErrors.map((error) => error.message).join('; ') });
      for (const test of module.children.allTests()) {
        const record = test.meta().conformance;
        const result = test.result();
        let verdict = record?.verdict ?? (result.state === 'failed' ? 'error' : result.state === 'skipped' ? 'skip' : 'pass');
        if (result.state === 'failed' && verdict === 'pass') verdict = 'error';
        const message = record?.message ?? (result.state === 'failed' ? result.errors?.map((error) => error.message).join('; ') : undefined);
        outcomes.push({ name: test.name, file, verdict, ...(message ? { message } : {}), ...(record ? { record } : {}) });
      }
    }
    const results = buildResults(outcomes, { target: config.baseUrl ?? 'embedded reference emulator', started: this.started, finished: new Date().toISOString() });
    mkdirSync(config.out, { recursive: true });
    writeFileSync(join(config.out, 'results.json'), `${JSON.stringify(results, null, 1)}\n`);
    const s = results.summary;
    process.stdout.write(`\nconformance: rules ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.skip} skip, ${s.disabled} disabled, ${results.warnings} warnings → ${join(config.out, 'results.json')}\n`);
  }
}
