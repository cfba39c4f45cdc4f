// Module hooks serving the suite's compiled copy in place of its TypeScript sources (registered by bin/typescript.mjs).
// A module keeps its source's URL: only the code Node is given comes from the copy. The packages the copy bundles
// (`vendor/`) are served from their bundles to the suite's modules.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

let checkout = '';
let compiledRoot = '';
/** @type {Map<string, string>} the URL of each vendored package's bundle, by the specifier the sources import it with */
const vendored = new Map();

/** @param {{ checkout: string, compiled: string, vendored: Record<string, string> }} data */
export function initialize(data) {
  checkout = data.checkout;
  compiledRoot = data.compiled;
  for (const [specifier, name] of Object.entries(data.vendored)) {
    const bundle = join(compiledRoot, 'vendor', `${name}.js`);
    if (existsSync(bundle)) vendored.set(specifier, pathToFileURL(bundle).href);
  }
}

const withoutQuery = (url) => url.replace(/[?#].*$/, '');
const compiledOf = (url) => join(compiledRoot, decodeURIComponent(withoutQuery(url).slice(checkout.length)).replace(/\.ts$/, '.js'));
const isCompiled = (url) => url.startsWith(checkout) && withoutQuery(url).endsWith('.ts') && existsSync(compiledOf(url));

/** `<file>.ts?target=<key>` (harness/target-key.ts) as vitest's native runner asks for it: a file URL whose `?` is escaped. */
const ESCAPED_TARGET = /\.ts%3Ftarget=/i;

export async function resolve(specifier, context, next) {
  // A spec file's copy for one target of a batch is a module of its own: the query Node keeps apart, and `load` ignores.
  if (specifier.startsWith(checkout) && ESCAPED_TARGET.test(specifier)) {
    const url = specifier.replace(ESCAPED_TARGET, '.ts?target=');
    if (isCompiled(url)) return { url, format: 'module', shortCircuit: true };
  }
  const parent = context.parentURL;
  if (parent && vendored.has(specifier) && isCompiled(parent)) return { url: vendored.get(specifier), format: 'module', shortCircuit: true };
  // The sources import each other as `./module.js` (TypeScript's NodeNext convention) for `./module.ts`.
  if (parent && specifier.endsWith('.js') && /^\.\.?\//.test(specifier) && isCompiled(parent)) {
    const url = new URL(`${specifier.slice(0, -'.js'.length)}.ts`, parent).href;
    if (isCompiled(url)) return { url, format: 'module', shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (isCompiled(url)) return { format: 'module', source: readFileSync(compiledOf(url)), shortCircuit: true };
  return next(url, context);
}
