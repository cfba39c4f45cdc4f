// The emulator's choices where the documents are silent are written once, in the header comment of the file that
// makes them; the README's section of the same name is produced from those headers: `npm run docs:choices`
// rewrites it, and test/emulator/choices-doc.test.ts fails while it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('..', import.meta.url);

/** The files whose header holds a "Choices where the document(s) …" list, in the order the README shows them. */
export const CHOICE_SOURCES: ReadonlyArray<{ title: string; source: string }> = [
  { title: 'Every area', source: 'emulator/server.ts' },
  { title: 'Account (document 1)', source: 'emulator/areas/account/index.ts' },
  { title: 'Managed databases (document 1)', source: 'emulator/areas/databases/index.ts' },
  { title: 'Compute instances (document 2)', source: 'emulator/areas/compute/index.ts' },
  { title: 'Domains (document 3)', source: 'emulator/areas/domains/index.ts' },
  { title: 'Firewalls (document 3)', source: 'emulator/areas/firewalls/index.ts' },
  { title: 'IP addresses (document 3)', source: 'emulator/areas/ips.ts' },
  { title: 'Monitoring (document 3)', source: 'emulator/areas/monitor.ts' },
];

const BEGIN = "<!-- choices: generated from the emulator files' headers by `npm run docs:choices` -->";
const END = '<!-- end of choices -->';

/** The header comment's choice items of `source`, each on one line. */
export function choicesOf(source: string): string[] {
  const header: string[] = [];
  for (const line of readFileSync(new URL(source, ROOT), 'utf8').split('\n')) {
    if (!line.startsWith('//')) break;
    header.push(line.replace(/^\/\/ ?/, ''));
  }
  const start = header.findIndex((line) => /^(Status )?[Cc]hoices where the documents? (is|are|says) /.test(line));
  if (start < 0) return [];
  const items: string[] = [];
  for (const line of header.slice(start + 1)) {
    if (!line.trim()) break;
    if (line.startsWith('- ')) items.push(line.slice(2).trim());
    else if (items.length) items[items.length - 1] += ` ${line.trim()}`;
  }
  return items;
}

function choicesSection(): string {
  return CHOICE_SOURCES.map(({ title, source }) => [`**${title}** (\`${source}\`):`, '', ...choicesOf(source).map((item) => `- ${item}`)].join('\n')).join(
    '\n\n',
  );
}

/** `readme` with its choices section as the emulator's headers produce it. */
export function withChoices(readme: string): string {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`README.md lacks the choices markers: ${BEGIN} … ${END}`);
  return `${readme.slice(0, begin)}${BEGIN}\n\n${choicesSection()}\n\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const readme = new URL('README.md', ROOT);
  writeFileSync(readme, withChoices(readFileSync(readme, 'utf8')));
}
