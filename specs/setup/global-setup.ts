// Prepares the target once per run. Without a base URL the reference emulator is started as a child process
// on a free port: the suite and the emulator meet only over HTTP, and a crashing target cannot take the run down.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { fromEnv, toEnv } from '../../harness/config.js';
import { embeddedTargetInfo, startEmbedded, type EmbeddedEmulator } from '../../harness/embedded.js';
import { HttpClient } from '../../harness/http.js';
import { ControlHooks, controlUrlProblem, type RequestLimits, type TargetInfo } from '../../harness/target.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const config = fromEnv();
  // Workers and the reporter read the same resolved configuration (one seed, one run id).
  Object.assign(process.env, toEnv(config));
  let emulator: EmbeddedEmulator | undefined;
  let info: TargetInfo;
  // Workers cannot share a limiter, so each gets its share of the cap: together they never exceed it.
  const limits: RequestLimits = { maxRpsPerWorker: config.maxRps ? config.maxRps / project.globalConfig.maxWorkers : null, deadline: config.runBudgetMs ? Date.now() + config.runBudgetMs : null };
  if (!config.baseUrl) {
    const token = config.token ?? `embedded-${randomBytes(12).toString('hex')}`;
    emulator = await startEmbedded(token, config.emulatorFaults, config.emulatorVariations);
    info = embeddedTargetInfo(config, emulator.url, token, limits);
  } else {
    // An explicit control URL that offers no hooks stops the run (`conformance run` says so before it starts).
    const problem = await controlUrlProblem(config);
    if (problem) throw new Error(problem);
    const controlBase = config.controlUrl ?? config.baseUrl;
    const http = new HttpClient(controlBase, config.timeoutMs);
    const control = await ControlHooks.probe(http).catch(() => false);
    await http.close();
    info = { config, baseUrl: config.baseUrl, token: config.token!, controlUrl: control ? controlBase : null, embedded: false, limits };
  }
  project.provide('target', info);
  return async () => {
    await emulator?.stop();
  };
}
