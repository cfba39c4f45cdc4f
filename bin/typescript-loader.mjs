// Module hooks serving the suite's compiled copy in place of its TypeScript sources (registered by bin/typescript.mjs).
// A module keeps its source's URL: only the code Node is given comes from the copy.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let checkout = '';
let compiledRoot = '';

/** @param {{ checkout: string, compiled: string }} data */
export function initialize(data) {
  checkout = data.checkout;
  compiledRoot = data.compiled;
}

const withoutQuery = (url) => url.replace(/[?#].*$/, '');
const compiledOf = (url) => join(compiledRoot, decodeURIComponent(withoutQuery(url).slice(checkout.length)).replace(/\.ts$/, '.js'));
const isCompiled = (url) => url.startsWith(checkout) && withoutQuery(url).endsWith('.ts') && existsSync(compiledOf(url));

export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
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
