// The CI examples in examples/ are valid YAML and do what the README says: one gates pull requests on the embedded
// emulator in 3 shards, each uploading its own reports; the other runs against a staging server every night and
// sweeps what the run left there. (`yaml` is already installed, by vite and allure.)
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SWEEP_DEFAULT_BUDGET_MS } from '../../cli/sweep-limits.js';
import { ROOT, startEmulator, tempDir } from '../safety/support.js';

type Step = { uses?: string; run?: string; if?: string; with?: Record<string, unknown> };
interface Job {
  needs?: string;
  if?: string;
  env?: Record<string, string>;
  'timeout-minutes'?: number;
  strategy?: { matrix?: { shard?: number[] } };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

const example = (name: string) => parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8')) as Workflow;
const workflow = example('github-actions.yml');

describe('examples/github-actions.yml', () => {
  it('runs on pull requests, one job per shard of the embedded-emulator run', () => {
    expect(workflow.on).toHaveProperty('pull_request');
    const shards = workflow.jobs.shard!.strategy!.matrix!.shard!;
    expect(shards).toEqual([1, 2, 3]);
    const run = workflow.jobs.shard!.steps.find((step) => step.run?.includes('npx conformance run'))!.run!;
    expect(run).toContain(`--shard \${{ matrix.shard }}/${shards.length}`);
    expect(run).not.toContain('--base-url');
  });

  it("uploads each shard's reports from the folder that shard wrote, even when a rule failed", () => {
    const steps = workflow.jobs.shard!.steps;
    const out = /--out (.+?)(?= --|$)/m.exec(steps.find((step) => step.run?.includes('npx conformance run'))!.run!)![1]!;
    const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(String(upload.with!.name)).toContain('${{ matrix.shard }}');
    const paths = String(upload.with!.path).trim().split('\n');
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path.startsWith(`${out}/`), path).toBe(true);
  });

  it('ends in one job that fails unless every shard passed', () => {
    const gate = Object.values(workflow.jobs).find((job) => job.needs === 'shard')!;
    expect(gate.if).toBe('always()');
    expect(gate.steps.map((step) => step.run).join('\n')).toContain('needs.shard.result');
  });

  it('merges the shards into one report, uploaded as the artifact of the last job', () => {
    const gate = Object.values(workflow.jobs).find((job) => job.needs === 'shard')!;
    const shards = workflow.jobs.shard!.strategy!.matrix!.shard!;
    const download = gate.steps.find((step) => step.uses?.startsWith('actions/download-artifact@'))!;
    const merge = gate.steps.find((step) => step.run?.includes('npx conformance report'))!.run!;
    const from = [...merge.matchAll(/--from (\S+)/g)].map((match) => match[1]);
    expect(from).toEqual(shards.map((shard) => `${download.with!.path}/conformance-reports-shard-${shard}/results.json`));
    const out = /--out (\S+)/.exec(merge)![1]!;
    const upload = gate.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(String(upload.with!.path)).toBe(`${out}/`);
  });
});

describe('examples/staging-nightly.yml', () => {
  const job = example('staging-nightly.yml').jobs.staging!;
  const stepRunning = (command: string) => job.steps.find((step) => step.run?.startsWith(`npx conformance ${command} `))!;
  const flagOf = (step: Step, flag: string) => Number(new RegExp(`${flag} (\\d+)`).exec(step.run!)![1]);

  it('runs on a schedule or by hand, never on a pull request (its code would run with the staging token)', () => {
    expect(Object.keys(example('staging-nightly.yml').on).sort()).toEqual(['schedule', 'workflow_dispatch']);
  });

  it('takes the target and the token from the repository settings through the environment, never on a command line', () => {
    expect(job.env).toEqual({
      CONFORMANCE_BASE_URL: '${{ vars.STAGING_API_URL }}',
      CONFORMANCE_TOKEN: '${{ secrets.STAGING_FULL_ACCESS_TOKEN }}',
      CONFORMANCE_OUT: 'reports/out',
    });
    for (const step of job.steps) expect(step.run ?? '').not.toMatch(/--token|--base-url|--out|secrets\./);
  });

  it('uploads the reports and then sweeps what the run left, waiting for clusters to provision, even after a fail', () => {
    const upload = job.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!;
    const sweep = stepRunning('sweep');
    expect([upload.if, sweep.if]).toEqual(['always()', 'always()']);
    for (const path of String(upload.with!.path).trim().split('\n')) expect(path.startsWith(`${job.env!.CONFORMANCE_OUT}/`), path).toBe(true);
    expect(job.steps.indexOf(sweep)).toBeGreaterThan(job.steps.indexOf(stepRunning('run')));
    expect(sweep.run).toContain('--all-runs');
    // The job outlives the run's budget, the sweep's and its wait.
    const sweepMs = SWEEP_DEFAULT_BUDGET_MS + flagOf(sweep, '--wait');
    expect(job['timeout-minutes']! * 60_000).toBeGreaterThan(flagOf(stepRunning('run'), '--run-budget') + sweepMs);
  });

  it("whose command lines the suite takes as they are: the run's flags in `plan`, and the sweep, against an emulator", async () => {
    const token = 'staging-example-token-1';
    const emulator = await startEmulator(token);
    try {
      const cwd = tempDir('staging-example');
      writeFileSync(join(cwd, 'conformance-expectations.json'), '{}');
      const env = { ...process.env, CONFORMANCE_BASE_URL: emulator.url, CONFORMANCE_TOKEN: token, CONFORMANCE_OUT: join(cwd, 'out') };
      const command = (step: Step, as?: string) => {
        const [, name, ...args] = step.run!.replace(/^npx /, '').split(' ');
        return spawnSync(process.execPath, [join(ROOT, 'bin/conformance.js'), as ?? name!, ...args], { cwd, env, encoding: 'utf8', timeout: 60_000 });
      };
      const plan = command(stepRunning('run'), 'plan');
      expect(plan.status, plan.stderr).toBe(0);
      // (no run under the folder: nothing to wait for)
      const sweep = command(stepRunning('sweep'));
      expect({ status: sweep.status, stdout: sweep.stdout }).toEqual({ status: 0, stdout: expect.stringContaining('nothing to do') });
    } finally {
      await emulator.stop();
    }
  }, 60_000);
});
