// Renders a run's Allure results into the single-file report, as its own process (reports/allure.ts starts it before
// the run ends): it loads Allure's modules and reads the configuration first, half of its work, then renders the
// results folder written to its standard input. If its input ends with no folder (the run stopped), it exits.
import { AllureReport, readConfig } from '@allurereport/core';

const [configFile, output, name] = process.argv.slice(2);
const config = await readConfig(process.cwd(), configFile, { name, output });

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const resultsDir = input.trim();
  if (!resultsDir) return;
  render(resultsDir).catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
});

async function render(resultsDir) {
  const report = new AllureReport(config);
  await report.start();
  await report.readDirectory(resultsDir);
  await report.done();
}
