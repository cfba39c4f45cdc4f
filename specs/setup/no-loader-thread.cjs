// Preloaded in each worker thread of a run from the compiled copy (the configuration's execArgv). On Node 20, which
// lacks in-thread module hooks, vitest registers a loader of its own in every worker (`module.register`, even with
// its node loader turned off): a thread of its own then answers each module the worker imports, to record vitest's
// module graph, which only watch mode and coverage read. A run from the copy imports plain JavaScript and reads
// neither, so that loader is not registered (about a fifth of a narrowed run's CPU went to loader threads).
const { isMainThread } = require('node:worker_threads');
const nodeModule = require('node:module');

if (!isMainThread) {
  const register = nodeModule.register;
  nodeModule.register = function registerUnlessVitestsOwn(specifier, ...rest) {
    if (specifier === '#nodejs-worker-loader') return;
    return register.call(this, specifier, ...rest);
  };
}
