// `conformance --version`: the package version and the documents version, exit 0.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const BIN = new URL('../../bin/conformance.js', import.meta.url).pathname;

describe('conformance --version', () => {
  it('prints the package version and the documents it judges against', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${version} (documents 4.123.1)\n`);
  });
});
