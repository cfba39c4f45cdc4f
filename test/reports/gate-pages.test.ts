// The new report items in headless Chromium: a property failure from a real run (one minimal counterexample shown
// once, one replay command, a curl reproduction, the offending exchange marked; JUnit and Allure beside it), and the
// pages of the gate: expectations, a merged shard report, a diff. UPDATE_REPORT_SCREENSHOT=1 saves the README's
// screenshots of the property failure and the merged report to docs/.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffResults, renderDiffHtml } from '../../reports/diff.js';
import { applyExpectations } from '../../reports/expectations.js';
import { renderHtml } from '../../reports/html.js';
import { mergeResults } from '../../reports/merge.js';
import type { Results, RuleCheck } from '../../reports/results.js';
import { OUTCOMES, sampleResults } from './sample-results.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.js');
const CHROMIUM = '/usr/bin/chromium';
const RULE = 'P3.firewall.rules.max-25';
const SCREENSHOT = process.env.UPDATE_REPORT_SCREENSHOT === '1';
const work = mkdtempSync(join(tmpdir(), 'conformance-gate-pages-'));
const out = join(work, 'out');

let run: { code: number | null; stderr: string };
let results: Results;
let property: RuleCheck;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const spawned = spawnSync(process.execPath, [BIN, 'run', '--emulator-fault', RULE, '--rules', RULE, '--seed', '3', '--out', out, '--progress', 'quiet'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
  });
  run = { code: spawned.status, stderr: spawned.stderr };
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
  property = results.rules.find((rule) => rule.id === RULE)!.checks.find((entry) => entry.verdict === 'fail' && entry.counterexample)!;
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 320_000);

afterAll(async () => {
  await browser?.close();
});

async function screenshot(name: string, locator = page.locator('body')): Promise<void> {
  const file = join(work, name);
  // The sticky filter bar would cover part of an element scrolled under it.
  await page.evaluate(() => document.querySelector('nav.filters')?.setAttribute('hidden', ''));
  await locator.screenshot({ path: file });
  expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  if (SCREENSHOT) {
    mkdirSync(join(ROOT, 'docs'), { recursive: true });
    copyFileSync(file, join(ROOT, 'docs', name));
  }
}

describe('a property failure', () => {
  it('carries one minimal counterexample, whole, and a message that does not repeat it', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    expect(property.message).toMatch(/should be rejected .* \(a generated value, shrunk in \d+ steps?\)$/);
    expect(property.message).not.toMatch(/counterexample|replay|"label"/);
    expect(property.counterexample).not.toContain('…');
    const sent = property.evidence![property.failingExchange!]!;
    expect(JSON.parse(property.counterexample!)).toEqual(sent.requestBody);
    // Minimal: one rule over the bound of 25.
    const rules = (sent.requestBody as { rules: { inbound: unknown[]; outbound: unknown[] } }).rules;
    expect(rules.inbound.length + rules.outbound.length).toBe(26);
    expect(sent.status).toBe(200);
  });

  it('gives one replay command and a curl of the failing exchange with the token as $TOKEN', () => {
    expect(property.replay).toBe(`npx conformance run --emulator-fault ${RULE} --rules ${RULE} --seed 3 specs/properties/part3.spec.ts`);
    expect(property.curl).toMatch(/^curl -sS -i -X POST "\$BASE_URL""\/v4\/networking\/firewalls" -H "Authorization: Bearer \$TOKEN" .*--data-raw '\{"label":/);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    const failure = junit.slice(junit.indexOf(`a body breaking only ${RULE}`));
    const text = failure.slice(0, failure.indexOf('</testcase>'));
    expect(text.match(/replay: npx conformance run/g)).toHaveLength(1);
    expect(text).toContain('curl: curl -sS -i -X POST');
    expect(text).toContain('← broke the rule');
    expect(text).not.toContain(`${RULE}: ${RULE}:`);
  });

  it('fills the Allure environment and executor: target, documents version, run id, seed', () => {
    const environment = readFileSync(join(out, 'allure-results', 'environment.properties'), 'utf8');
    expect(environment).toBe(`target=embedded reference emulator\ndocuments=version 4.123.1\nrun=${results.run.id}\nseed=3\n`);
    expect(JSON.parse(readFileSync(join(out, 'allure-results', 'executor.json'), 'utf8'))).toMatchObject({
      name: 'conformance',
      buildName: `run ${results.run.id} (seed 3)`,
    });
    expect(existsSync(join(out, 'allure-report', 'index.html'))).toBe(true);
  });

  it('shows in compliance.html the counterexample once, the replay and curl commands, and the offending exchange marked', async () => {
    await page.goto(`file://${join(out, 'compliance.html')}`);
    const card = page.locator('.failing-check').filter({ hasText: `a body breaking only ${RULE}` });
    await expect(card.count()).resolves.toBe(1);
    await expect(card.locator('.replay-data pre').innerText()).resolves.toBe(property.counterexample);
    await expect(card.locator('.message').innerText()).resolves.toBe(property.message);
    await expect(card.locator('.command.replay code').innerText()).resolves.toBe(property.replay);
    await expect(card.locator('.command.curl').isVisible()).resolves.toBe(false);
    await card.locator('details.curl > summary').click();
    await expect(card.locator('.command.curl code').innerText()).resolves.toBe(property.curl);
    await card.locator('details.curl > summary').click();
    await card.locator('details.evidence > summary').click();
    const offending = card.locator('.exchange.offending');
    await expect(offending.count()).resolves.toBe(1);
    await expect(offending.locator('.reqline').innerText()).resolves.toMatch(
      new RegExp(`^${property.failingExchange! + 1}\\. POST /v4/networking/firewalls → HTTP 200 the exchange that broke the rule$`),
    );
    await screenshot('property-failure.png', card);
  });
});

describe('the pages of the gate', () => {
  const FIREWALL = 'P3.firewall.status.enable-blocked-by-active';

  it('expectations: the expected fail under its reason, apart from the failures, with the expected filter', async () => {
    const file = join(work, 'expectations.html');
    writeFileSync(
      file,
      renderHtml(
        applyExpectations(
          sampleResults(),
          { [FIREWALL]: { reason: 'known bug OPS-1', expires: '2027-01-31' }, 'P3.firewall.status.disabled-to-enabled': { reason: 'old' } },
          'gate.json',
        ),
      ),
    );
    await page.goto(`file://${file}`);
    await expect(page.locator(`#expected-${FIREWALL.replaceAll('.', '\\.')} .reason`).innerText()).resolves.toBe(
      'expected: known bug OPS-1 (until 2027-01-31)',
    );
    await expect(page.locator('#unexpectedly-passing + ul li').innerText()).resolves.toBe('P3.firewall.status.disabled-to-enabled — old');
    await expect(page.locator('.count[data-count="expected"] b').innerText()).resolves.toBe('1');
    await expect(page.locator(`#failures article[id="fail-${FIREWALL}"]`).count()).resolves.toBe(0);
    await page.locator('input[name=status][value=expected]').uncheck();
    await expect(page.locator(`article[id="expected-${FIREWALL}"]`).isVisible()).resolves.toBe(false);
  });

  it('a merged shard report: where it came from, with the counts of the whole run', async () => {
    const one = { ...sampleResults(OUTCOMES.slice(0, 3)), run: { ...sampleResults().run, id: 'rone', shard: '1/2' } };
    const two = { ...sampleResults(OUTCOMES.slice(3)), run: { ...sampleResults().run, id: 'rtwo', shard: '2/2' } };
    const file = join(work, 'merged.html');
    const merged = mergeResults([
      { file: 'shard-1/results.json', results: one },
      { file: 'shard-2/results.json', results: two },
    ]);
    writeFileSync(file, renderHtml(merged));
    await page.goto(`file://${file}`);
    await expect(page.locator('#run').innerText()).resolves.toMatch(/merged from 2 results \(shards 1\/2, 2\/2\)$/);
    for (const status of ['pass', 'fail', 'error', 'skip', 'disabled'] as const)
      await expect(page.locator(`.count[data-count="${status}"] b`).innerText()).resolves.toBe(String(sampleResults().summary[status]));
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot('merged-report.png', page.locator('header.top'));
  });

  it('a diff: each changed rule with both evidences side by side', async () => {
    const file = join(work, 'diff.html');
    const after = sampleResults(OUTCOMES.slice(1));
    writeFileSync(file, renderDiffHtml(diffResults('before.json', sampleResults(), 'after.json', after)));
    await page.goto(`file://${file}`);
    const change = page.locator(`article[id="change-${FIREWALL}"]`);
    await expect(change.getAttribute('data-kind')).resolves.toBe('fixed');
    const sides = change.locator('.side');
    await expect(sides.count()).resolves.toBe(2);
    const [left, right] = [await sides.nth(0).boundingBox(), await sides.nth(1).boundingBox()];
    expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
    await expect(sides.nth(0).locator('.command.replay code').innerText()).resolves.toContain(`--rules ${FIREWALL}`);
    await expect(sides.nth(1).innerText()).resolves.toContain('no check of this rule failed');
  });
});
