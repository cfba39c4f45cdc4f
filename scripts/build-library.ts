// `npm run build`: after `tsc -p tsconfig.build.json` has compiled lib/index.ts and what it imports into dist/,
// adds the data a consumer imports without running code: the schemas (dist/schemas, also what the compiled
// contract loads), the document coverage map, the ledger, the endpoint catalogue and the OpenAPI 3.1 document, as JSON.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ledger } from '../rules/index.js';
import { endpoints } from '../rules/endpoints.js';
import { openApiDocument } from '../harness/openapi.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist/`;

mkdirSync(dist, { recursive: true });
rmSync(`${dist}schemas`, { recursive: true, force: true });
cpSync(`${root}schemas`, `${dist}schemas`, { recursive: true, filter: (source) => !source.endsWith('.md') });
// The coverage map the compiled ledger reads each rule's quotes from.
cpSync(`${root}rules/coverage`, `${dist}rules/coverage`, { recursive: true });
const write = (name: string, value: unknown) => writeFileSync(`${dist}${name}`, `${JSON.stringify(value, null, 2)}\n`);
write('ledger.json', ledger);
write('endpoints.json', endpoints);
write('openapi.json', openApiDocument());
process.stdout.write(`dist/: ${ledger.length} rules, ${endpoints.length} endpoints, the schemas and openapi.json\n`);
