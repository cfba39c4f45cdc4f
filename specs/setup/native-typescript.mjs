// Spec files run through Node's own `import` (vitest's experimental.viteModuleRunner off): each worker thread
// registers the loader of the suite's TypeScript once, before the first spec file is imported (the compiled copy its
// process found, else tsx: bin/typescript.mjs).
if (!globalThis.__conformanceTsx) {
  globalThis.__conformanceTsx = true;
  // The packages the spec files import, loaded before the loader: each module it sees is a round trip to its thread.
  await Promise.all(['vitest', 'fast-check', 'ipaddr.js', 'p-throttle', 'allure-js-commons'].map((name) => import(name)));
  const { registerTypeScript } = await import('../../bin/typescript.mjs');
  await registerTypeScript({ build: false });
}
