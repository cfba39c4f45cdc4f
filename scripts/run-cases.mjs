#!/usr/bin/env node
// Runs the exported request cases (`conformance export-cases --out DIR`) against a target, in plain JavaScript (no
// dependency), to show they behave as they say: an `accept` case answered 2xx, a `reject` case 4xx.
//
//   node scripts/run-cases.mjs --cases DIR/cases --base-url URL --token TOKEN [--json]
//
// A rejection only means something for a request that would otherwise succeed, so a case runs only where the
// target accepts its `base` body (the valid sample the case changes) at the same path; otherwise it is skipped
// with the reason (the sample names ids this target does not hold, say). Path ids come from the first item of the
// parent list; where that list is empty, the runner creates one with the `base` body of an accepting case of the
// parent's POST (a domain for records, say). Targets answering `GET /__control` with {"control": true} are reset
// (`POST /__control/reset`) before every request, so uniqueness and quotas never decide a case; on other targets
// the cases run in one go and a create may meet what an earlier one made.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = 'usage: node scripts/run-cases.mjs --cases DIR --base-url URL --token TOKEN [--json]';

function die(message) {
  process.stderr.write(`run-cases: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let options;
try {
  ({ values: options } = parseArgs({
    options: { cases: { type: 'string' }, 'base-url': { type: 'string' }, token: { type: 'string' }, json: { type: 'boolean', default: false } },
  }));
} catch (error) {
  die(error.message);
}
if (!options.cases || !options['base-url'] || !options.token) die('--cases, --base-url and --token are required');

let cases;
try {
  cases = readdirSync(options.cases)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => JSON.parse(readFileSync(join(options.cases, name), 'utf8')));
} catch (error) {
  die(`cannot read the cases in ${options.cases}: ${error.code ?? error.message}`);
}

const baseUrl = options['base-url'].replace(/\/+$/, '');

async function send(method, path, body) {
  let response;
  let text;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${options.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    text = await response.text();
  } catch (error) {
    die(`${method} ${baseUrl}${path} failed: ${error.cause?.code ?? error.message}`);
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, body: json };
}

const ok = (status) => status >= 200 && status < 300;

const control = (await send('GET', '/__control')).body?.control === true;
const reset = async () => {
  if (control) await send('POST', '/__control/reset', {});
};

/** A base body that creates an item under `listPath`, from the accepting cases of `POST listPath`. */
const creatorBody = (template) => cases.find((c) => c.endpoint === `POST ${template}` && c.expect === 'accept')?.base;

/** Fills the `{param}` segments of `template` left to right; throws a skip reason when a list has nothing to use. */
async function fillPath(template) {
  let path = '';
  let listTemplate = '';
  for (const segment of template.split('/').slice(1)) {
    if (!segment.startsWith('{')) {
      path += `/${segment}`;
      listTemplate += `/${segment}`;
      continue;
    }
    let first = (await send('GET', path)).body?.data?.[0];
    const create = creatorBody(listTemplate);
    if (!first && create !== undefined && ok((await send('POST', path, create)).status)) first = (await send('GET', path)).body?.data?.[0];
    if (first?.id === undefined) throw new Skip(`no item in ${listTemplate} to fill ${segment}`);
    path += `/${encodeURIComponent(String(first.id))}`;
    listTemplate += `/${segment}`;
  }
  return path;
}

class Skip extends Error {}

async function attempt(method, template, body) {
  await reset();
  return send(method, await fillPath(template), body);
}

const baseVerdicts = new Map();
async function baseAccepted(testCase) {
  const key = JSON.stringify([testCase.endpoint, testCase.base]);
  if (!baseVerdicts.has(key)) {
    const [method, template] = testCase.endpoint.split(' ');
    baseVerdicts.set(
      key,
      attempt(method, template, testCase.base).then(
        (exchange) => (ok(exchange.status) ? null : `the target refuses the base body (HTTP ${exchange.status})`),
        (error) => (error instanceof Skip ? error.message : Promise.reject(error)),
      ),
    );
  }
  return baseVerdicts.get(key);
}

const summary = { control, ran: 0, behaved: 0, mismatches: [], skipped: {} };
for (const testCase of cases) {
  const skip = await baseAccepted(testCase);
  if (skip) {
    summary.skipped[`${testCase.endpoint}: ${skip}`] = (summary.skipped[`${testCase.endpoint}: ${skip}`] ?? 0) + 1;
    continue;
  }
  const [method, template] = testCase.endpoint.split(' ');
  const exchange = await attempt(method, template, testCase.body);
  const behaved = testCase.expect === 'accept' ? ok(exchange.status) : exchange.status >= 400 && exchange.status < 500;
  summary.ran += 1;
  if (behaved) summary.behaved += 1;
  else
    summary.mismatches.push({
      rule: testCase.rule,
      endpoint: testCase.endpoint,
      field: testCase.field,
      expect: testCase.expect,
      status: exchange.status,
      body: testCase.body,
      response: exchange.body,
    });
}
await reset();

const skippedCount = Object.values(summary.skipped).reduce((sum, n) => sum + n, 0);
if (options.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else {
  for (const m of summary.mismatches)
    process.stdout.write(`MISMATCH ${m.rule} ${m.endpoint} ${m.field ?? '(body)'}: expected ${m.expect}, got HTTP ${m.status}\n`);
  for (const [reason, n] of Object.entries(summary.skipped)) process.stdout.write(`skipped ${n}: ${reason}\n`);
  process.stdout.write(
    `${summary.behaved} of ${summary.ran} cases behaved as they say; ${summary.mismatches.length} did not; ${skippedCount} skipped${control ? '' : ' (no control hooks: not reset between cases)'}\n`,
  );
}
process.exitCode = summary.mismatches.length ? 1 : 0;
