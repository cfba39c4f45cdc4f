// `conformance --version`: the package's version and the documents it judges against.
import { readFileSync } from 'node:fs';
import { DOCUMENTS_VERSION } from '../rules/index.js';

export function versionLine(): string {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return `${version} (documents ${DOCUMENTS_VERSION})`;
}
