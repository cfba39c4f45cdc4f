// `conformance run`: resolves the configuration, runs the suite through vitest, and maps the verdicts to an
// exit code (0 no fail, 1 a fail, 2 an error or bad usage).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, resolveConfig, toEnv, type SuiteConfig } from '../harness/config.js';
import type { Results } from '../reports/results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface RunOptions {
  config?: string;
  baseUrl?: string;
  token?: string;
  tokenScoped?: string[];
  restrictedToken?: string;
  controlUrl?: string;
  out?: string;
  runs?: string;
  violationRuns?: string;
  seed?: string;
  timeout?: string;
  rules?: string;
  areas?: string;
  allowDestructive?: boolean;
  region?: string;
  vlanRegion?: string;
  instanceType?: string;
  largerInstanceType?: string;
  otherRegion?: string;
  noVlanRegion?: string;
  spareVlanRegion?: string;
  runId?: string;
  emulatorFault?: string[];
}

export function configFromOptions(options: RunOptions, env: NodeJS.ProcessEnv = process.env): SuiteConfig {
  const flags: Partial<Record<keyof SuiteConfig, string>> = {
    baseUrl: options.baseUrl,
    token: options.token,
    scopedTokens: options.tokenScoped?.join(';'),
    restrictedToken: options.restrictedToken,
    controlUrl: options.controlUrl,
    out: options.out,
    runs: options.runs,
    violationRuns: options.violationRuns,
    seed: options.seed,
    timeoutMs: options.timeout,
    rules: options.rules,
    areas: options.areas,
    allowDestructive: options.allowDestructive ? 'true' : undefined,
    region: options.region,
    vlanRegion: options.vlanRegion,
    instanceType: options.instanceType,
    largerInstanceType: options.largerInstanceType,
    otherRegion: options.otherRegion,
    noVlanRegion: options.noVlanRegion,
    spareVlanRegion: options.spareVlanRegion,
    runId: options.runId,
    emulatorFaults: options.emulatorFault?.join(','),
  };
  return resolveConfig({ file: options.config, env, flags });
}

/** Runs the suite; returns the exit code. */
export async function runSuite(config: SuiteConfig, filters: string[] = []): Promise<number> {
  Object.assign(process.env, toEnv(config));
  const resultsFile = join(config.out, 'results.json');
  rmSync(resultsFile, { force: true });
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest('test', filters, { config: join(ROOT, 'specs/vitest.config.ts'), root: ROOT, run: true, watch: false });
  await vitest?.close();
  if (!existsSync(resultsFile)) {
    process.stderr.write('conformance: the run produced no results (see the output above)\n');
    return 2;
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
  if (results.summary.fail > 0) return 1;
  if (results.summary.error > 0) return 2;
  return 0;
}

export { ConfigError };
