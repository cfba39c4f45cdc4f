// Renders a run's Allure results into the single-file report, as its own process (reports/allure.ts starts it while the
// run goes on). It loads Allure's modules and starts the report first, then reads the results as the run writes them,
// each time it is told on its standard input (one line each):
//   read <results folder>     the results written since the last read
//   render <results folder>   the rest, then the report is written and the process exits
// If its input ends before `render` (the run stopped), it exits without writing anything.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AllureReport, readConfig } from '@allurereport/core';

const [configFile, output, name] = process.argv.slice(2);
const config = await readConfig(process.cwd(), configFile, { name, output });
const report = new AllureReport(config);
await report.start();

/** Files already read: each is read once, whole (the writer renames a file into place when it is complete). */
const read = new Set();

async function readNew(folder) {
  let names;
  try {
    names = await readdir(folder);
  } catch {
    return;
  }
  for (const file of names.filter((file) => !file.endsWith('.tmp') && !read.has(file)).sort()) {
    read.add(file);
    await report.readFile(join(folder, file));
  }
}

let rendering = false;
// Lines are handled one after another: a read finishes before the next begins.
let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  const [, command, folder] = /^(read|render) (.+)$/.exec(line) ?? [];
  if (!command || rendering) return;
  rendering = command === 'render';
  queue = queue
    .then(async () => {
      await readNew(folder);
      if (command === 'render') await report.done();
    })
    .catch((error) => {
      // Nothing more can be rendered: the run is told at once (its reports say the Allure report was not written).
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
});
// Input closed without `render`: nothing is written; with it, the report is written before the process ends.
process.stdin.on('end', () => {
  if (!rendering) process.exit(0);
});
