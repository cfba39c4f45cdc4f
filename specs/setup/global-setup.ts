// Prepares the target once per run. Without a base URL the reference emulator is started as a child process
// on a free port: the suite and the emulator meet only over HTTP, and a crashing target cannot take the run down.
import type { TestProject } from 'vitest/node';
import { SETUP_ERROR_ENV, fromEnv, toEnv } from '../../harness/config.js';
import { embeddedTargetInfo, newEmbeddedToken, startEmbedded, takeEmbeddedAhead, type EmbeddedEmulator } from '../../harness/embedded.js';
import { HttpClient } from '../../harness/http.js';
import { forgetFileEnds } from '../../harness/run-order.js';
import { ControlHooks, controlUrlProblem } from '../../harness/control-hooks.js';
import { withIdForms } from '../../harness/resources.js';
import type { RequestLimits, TargetInfo } from '../../harness/target.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    return await prepare(project);
  } catch (error) {
    // Nothing can be judged: the command exits 2 with this line, and the reports say so rather than "conforms".
    const message = `the run's setup failed: ${(error as Error).message}`;
    process.env[SETUP_ERROR_ENV] = message;
    throw Object.assign(new Error(message), { name: 'SetupError' });
  }
}

async function prepare(project: TestProject): Promise<() => Promise<void>> {
  const config = fromEnv();
  // Workers and the reporter read the same resolved configuration (one seed, one run id).
  Object.assign(process.env, toEnv(config));
  forgetFileEnds(config);
  let emulator: EmbeddedEmulator | undefined;
  let info: TargetInfo;
  // Workers cannot share a limiter, so each gets its share of the cap: together they never exceed it.
  const limits: RequestLimits = {
    maxRpsPerWorker: config.maxRps ? config.maxRps / project.globalConfig.maxWorkers : null,
    deadline: config.runBudgetMs ? Date.now() + config.runBudgetMs : null,
  };
  if (!config.baseUrl) {
    // `conformance run` starts it ahead, while vitest starts (harness/embedded.ts).
    const started = takeEmbeddedAhead(config.token ?? undefined, config.emulatorFaults, config.emulatorVariations);
    const token = started?.token ?? config.token ?? newEmbeddedToken();
    emulator = await (started?.emulator ?? startEmbedded(token, config.emulatorFaults, config.emulatorVariations));
    info = embeddedTargetInfo(config, emulator.url, token, limits);
  } else {
    // An explicit control URL that offers no hooks stops the run (`conformance run` says so before it starts).
    const problem = await controlUrlProblem(config);
    if (problem) throw new Error(problem);
    const controlBase = config.controlUrl ?? config.baseUrl;
    const http = new HttpClient(controlBase, { timeoutMs: config.timeoutMs, headers: config.headers });
    const control = await ControlHooks.probe(http).catch(() => false);
    await http.close();
    info = { config, baseUrl: config.baseUrl, token: config.token!, controlUrl: control ? controlBase : null, embedded: false, limits };
  }
  project.provide('target', await withIdForms(info));
  return async () => {
    await emulator?.stop();
  };
}
