// A run from the sources (no compiled copy: bin/typescript.mjs; or vitest run on specs/vitest.config.ts with tsx)
// imports its spec files through Node's own `import` (vitest's experimental.viteModuleRunner off): each worker thread
// registers tsx's loader once, before the first spec file is imported.
if (!globalThis.__conformanceTsx) {
  globalThis.__conformanceTsx = true;
  // The packages the spec files import, loaded before the loader: each module it sees is a round trip to its thread.
  await Promise.all(['vitest', 'fast-check', 'ipaddr.js', 'p-throttle', 'allure-js-commons'].map((name) => import(name)));
  (await import('tsx/esm/api')).register();
}
