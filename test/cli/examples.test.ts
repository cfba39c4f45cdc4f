// The CI example in examples/ is valid YAML and does what the README says: gates pull requests on the embedded
// emulator in 3 shards, each uploading its own reports. (`yaml` is already installed, by vite and allure.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

type Step = { uses?: string; run?: string; if?: string; with?: Record<string, unknown> };
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { needs?: string; if?: string; strategy?: { matrix?: { shard?: number[] } }; steps: Step[] }>;
}

const workflow = parse(readFileSync(new URL('../../examples/github-actions.yml', import.meta.url), 'utf8')) as Workflow;

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
