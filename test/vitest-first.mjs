// Preloaded before tsx (`node --import <this file> --import tsx <script>.ts`) by the self-tests' child processes that
// drive vitest's Node API from TypeScript sources: vitest's own modules (hundreds of plain JavaScript files) and the
// other packages a run imports load before tsx's hooks are registered, so none of them makes a round trip to tsx's
// thread (importing `vitest/node`: about 0.6 s of CPU instead of 2.7 s). bin/conformance.js does the same for the
// command.
await import('../bin/packages-first.mjs');
