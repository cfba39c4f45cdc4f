// `npm run docs:settings`: rewrites the README's configuration table from harness/settings.ts
// (test/cli/readme-settings.test.ts fails while it is stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { withSettingsTable } from '../harness/settings.js';

const README = new URL('../README.md', import.meta.url);
writeFileSync(README, withSettingsTable(readFileSync(README, 'utf8')));
