// Every spec file of the suite collects: a check naming an unknown rule id (or any other error while declaring the
// checks) fails here, not silently in a run that drops the file.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../harness/config.js';
import { embeddedTargetInfo } from '../../harness/embedded.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the spec files', () => {
  it('all collect, each declaring at least one check', async () => {
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
      // Collection declares the checks without running them; nothing is sent to this address.
      vitest.projects[0]!.provide(
        'target',
        embeddedTargetInfo(resolveConfig({}), 'http://127.0.0.1:9', 'collecting', { maxRpsPerWorker: null, deadline: null }),
      );
      const specifications = await vitest.globTestSpecifications();
      expect(specifications.length).toBeGreaterThan(10);
      const collected = await vitest.collectTests(specifications);
      const problems = collected.testModules.flatMap((module) => module.errors().map((error) => `${module.moduleId}: ${error.message}`));
      expect(problems).toEqual([]);
      expect(collected.testModules.filter((module) => [...module.children.allTests()].length === 0).map((module) => module.moduleId)).toEqual([]);
    } finally {
      await vitest.close();
    }
  }, 120_000);
});
