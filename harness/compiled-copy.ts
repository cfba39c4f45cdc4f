// The suite's compiled copy (bin/typescript.mjs): plain JavaScript Node imports without a loader. A process the command
// started from it names it in its environment; its vitest configuration points vitest at the copy's reporters, global
// setup and runner, and the runner imports each spec file's copy (specs/setup/compiled-runner.ts).
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED_ENV } from '../bin/typescript.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The folder of the copy this process runs from, or null (the sources run through tsx). */
export function compiledCopy(): string | null {
  return process.env[COMPILED_ENV] || null;
}

/**
 * The copy's JavaScript file of a `.ts` source of the checkout (absolute, or relative to the checkout; a query kept),
 * or null when the process runs from no copy or the copy has no such file.
 */
export function compiledCopyOf(source: string): string | null {
  const copy = compiledCopy();
  const [path, query] = source.split(/(?=\?)/) as [string, string?];
  const inCheckout = relative(ROOT, resolve(ROOT, path));
  if (!copy || !path.endsWith('.ts') || inCheckout.startsWith('..')) return null;
  const compiled = join(copy, inCheckout.replace(/\.ts$/, '.js'));
  return existsSync(compiled) ? `${compiled}${query ?? ''}` : null;
}

/** `source` for vitest to import: its copy's file when the process runs from one. */
export const runnable = (source: string): string => compiledCopyOf(source) ?? source;
