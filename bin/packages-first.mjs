// The packages a process running the suite through vitest's Node API imports in its main thread (vitest's own
// modules, hundreds of plain JavaScript files; the reporters' and the command line's), loaded before a loader of
// TypeScript is registered: each module a loader sees is a round trip to its thread (a narrowed run about 0.35 s of
// CPU less than with vitest's alone loaded first). Imported by bin/conformance.js for a `run` from the sources (no
// compiled copy: bin/typescript.mjs) and by the self-tests' child processes that drive vitest (test/vitest-first.mjs).
await Promise.all(
  ['vitest/node', 'vitest', 'allure-vitest/reporter', 'allure-js-commons', 'allure-js-commons/sdk/reporter', 'log-update', 'fast-check', 'commander'].map(
    (name) => import(name),
  ),
);
