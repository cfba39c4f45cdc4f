// A vitest test case as a check outcome (shared by the results and progress reporters).
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestCase, TestModule } from 'vitest/node';
import { FILTERED_OUT_PLACEHOLDER } from '../harness/plan.js';
import type { CheckOutcome } from './results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Spec file relative to the project root (what the `run` command's file filter matches). */
export function specFile(module: TestModule): string {
  return relative(ROOT, module.moduleId);
}

export function outcomeOf(test: TestCase, file: string): CheckOutcome {
  const record = test.meta().conformance;
  const result = test.result();
  let verdict = record?.verdict ?? (result.state === 'failed' ? 'error' : result.state === 'skipped' ? 'skip' : 'pass');
  if (result.state === 'failed' && verdict === 'pass') verdict = 'error';
  const message = record?.message ?? (result.state === 'failed' ? result.errors?.map((error) => error.message).join('; ') : undefined);
  const durationMs = test.diagnostic()?.duration;
  return {
    name: test.name,
    file,
    verdict,
    ...(message ? { message } : {}),
    ...(durationMs !== undefined ? { durationMs: Math.round(durationMs) } : {}),
    ...(record ? { record } : {}),
  };
}

/** Names the outcome of a spec file that could not run (e.g. a check naming an unknown rule id). */
export const SPEC_FILE_ERROR = '(spec file could not run) ';

/** A spec file that could not run at all is one `error` outcome. */
/** What a spec file gave: an error outcome if it could not run (or not all of it), and one outcome per check. */
export function moduleOutcomes(module: TestModule): CheckOutcome[] {
  const file = specFile(module);
  const moduleError = moduleErrorOutcome(module);
  return [...(moduleError ? [moduleError] : []), ...checksOf(module).map((test) => outcomeOf(test, file))];
}

/** The checks of a spec file: its tests but the place holders of the checks a narrowed run left out. */
export function checksOf(module: TestModule): TestCase[] {
  return [...module.children.allTests()].filter((test) => !isPlaceholder(test));
}

export const isPlaceholder = (test: TestCase): boolean => test.name === FILTERED_OUT_PLACEHOLDER;

export function moduleErrorOutcome(module: TestModule): CheckOutcome | undefined {
  const errors = module.errors();
  if (!errors.length) return undefined;
  const file = specFile(module);
  return { name: `${SPEC_FILE_ERROR}${file}`, file, verdict: 'error', message: errors.map((error) => error.message).join('; ') };
}
