// How a finished run becomes an exit code, and --fail-on (CONFORMANCE_FAIL_ON, config key failOn).
import { describe, expect, it } from 'vitest';
import { exitOf } from '../../cli/run.js';
import { resolveConfig } from '../../harness/config.js';
import { SPEC_FILE_ERROR } from '../../reports/outcomes.js';

const clean = {
  summary: { pass: 10, fail: 0, expected: 0, error: 0, warning: 0, skip: 0, disabled: 0 },
  warnings: 0,
  score: { percent: 100, passedMust: 10, judgedMust: 10, definition: '' },
  checkList: [],
};
const warned = { ...clean, summary: { ...clean.summary, warning: 1 }, warnings: 1 };

describe('exit codes of a finished run', () => {
  it('--fail-on must (the default) lets SHOULD findings pass; --fail-on warning makes them exit 1 with one line', () => {
    expect(resolveConfig({}).failOn).toBe('must');
    expect(exitOf(warned, { failOn: 'must' })).toEqual({ code: 0 });
    expect(exitOf(warned, resolveConfig({ env: { CONFORMANCE_FAIL_ON: 'warning' } }))).toEqual({
      code: 1,
      line: expect.stringMatching(/1 SHOULD rule\(s\) with a warning.*--fail-on warning/),
    });
    expect(exitOf(clean, { failOn: 'warning' })).toEqual({ code: 0 });
    expect(() => resolveConfig({ flags: { failOn: 'should' } })).toThrow(/^flags \(failOn\): fail-on is one of must, warning, got "should"$/);
  });

  it('a fail is 1, an error inside or outside the checks 2, and a run that judged no MUST rule 2', () => {
    expect(exitOf({ ...clean, summary: { ...clean.summary, fail: 1, error: 1 } }, { failOn: 'must' }).code).toBe(1);
    expect(exitOf({ ...clean, summary: { ...clean.summary, error: 1 } }, { failOn: 'must' }).code).toBe(2);
    expect(exitOf(clean, { failOn: 'must' }, 1)).toEqual({ code: 2, line: expect.stringMatching(/outside the checks/) });
    expect(exitOf({ ...clean, score: { ...clean.score, passedMust: 0, judgedMust: 0 } }, { failOn: 'must' })).toEqual({
      code: 2,
      line: expect.stringMatching(/no MUST rule was judged/),
    });
    const uncollected = {
      name: `${SPEC_FILE_ERROR}specs/part3/firewalls.spec.ts`,
      file: 'specs/part3/firewalls.spec.ts',
      area: '',
      rules: [],
      verdict: 'error' as const,
      message: 'check "x" names unknown rule id(s): P9.nope',
    };
    expect(exitOf({ ...clean, checkList: [uncollected] }, { failOn: 'must' })).toEqual({
      code: 2,
      line: 'specs/part3/firewalls.spec.ts could not be collected (check "x" names unknown rule id(s): P9.nope): the run is incomplete',
    });
  });
});
