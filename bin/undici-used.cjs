// What the suite uses of undici, bundled for its compiled copy (bin/typescript.mjs) in place of the whole package:
// the pools and agents and their request API, without fetch, WebSocket, the mocks, caches and interceptors (a bundle
// of 0.5 MB instead of 1.1 MB, which every thread of a run loads: about 25 ms of each thread's start). The modules
// are undici's own; the one line of its index.js that gives every dispatcher its request API is repeated here. A
// source importing anything else from undici fails the copy's load (test/harness/compiled-suite.test.ts).
const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const api = require('undici/lib/api');

Object.assign(Dispatcher.prototype, api);

module.exports = {
  Agent: require('undici/lib/dispatcher/agent'),
  Pool: require('undici/lib/dispatcher/pool'),
  // Loaded only when the environment names a proxy (harness/http.ts).
  get EnvHttpProxyAgent() {
    return require('undici/lib/dispatcher/env-http-proxy-agent');
  },
};
