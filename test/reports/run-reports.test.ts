// A run with a known failure (an emulator fault, narrowed to its rule) and everything it writes: JSON-lines progress,
// results.json / compliance.html / junit.xml at the paths given, the Allure results and report, a replay command
// that really replays, `report --from`, and compliance.html driven in headless Chromium.
// UPDATE_REPORT_SCREENSHOT=1 makes the run a full one and saves the README's screenshot to docs/.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALLURE_CATEGORIES } from '../../reports/allure.js';
import { FILTERED_OUT, loadCosts } from '../../harness/plan.js';
import { XMLValidator } from 'fast-xml-parser';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromOptions } from '../../cli/run.js';
import type { Results } from '../../reports/results.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.js');
const CHROMIUM = '/usr/bin/chromium';
const FAULT = 'P3.firewall.status.enable-blocked-by-active';
const SCREENSHOT = process.env.UPDATE_REPORT_SCREENSHOT === '1';
const work = mkdtempSync(join(tmpdir(), 'conformance-run-reports-'));
const paths = {
  out: join(work, 'out'),
  html: join(work, 'pages', 'report.html'),
  junit: join(work, 'ci', 'junit.xml'),
  json: join(work, 'data', 'results.json'),
};

function conformance(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let run: ReturnType<typeof conformance>;
let results: Results;

beforeAll(() => {
  const narrow = SCREENSHOT ? [] : ['--rules', FAULT];
  run = conformance([
    'run',
    '--emulator-fault',
    FAULT,
    ...narrow,
    '--seed',
    '77',
    '--out',
    paths.out,
    '--html',
    paths.html,
    '--junit',
    paths.junit,
    '--json',
    paths.json,
    '--progress',
    'jsonl',
  ]);
  results = JSON.parse(readFileSync(paths.json, 'utf8')) as Results;
}, 320_000);

/** The spec files the run loaded, as its JSON lines name them. */
const loadedFiles = () =>
  new Set(
    run.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { file: string }).file),
  );

describe('a run with a known failure', () => {
  it('exits 1, with one JSON object per finished check on standard output and the summary on standard error', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { check: string; rules: string[]; verdict: string; file: string });
    // One line per check the run chose: a run narrowed by --rules loads only the spec files holding one, and never
    // declares the others; results.json lists those too, as disabled by the filter.
    const chosen = results.checkList.filter((check) => check.message !== FILTERED_OUT);
    expect(lines).toEqual(chosen.map((check) => expect.objectContaining({ check: check.name, file: check.file })));
    expect(results.checkList.filter((check) => loadedFiles().has(check.file) && check.message === FILTERED_OUT).length).toBeGreaterThan(0);
    expect([...loadedFiles()]).toEqual(SCREENSHOT ? expect.any(Array) : ['specs/part3/firewalls.spec.ts']);
    expect(results.checkList.filter((check) => !loadedFiles().has(check.file)).map((check) => check.verdict)).toEqual(expect.arrayContaining(['disabled']));
    expect(results.checkList).toHaveLength(loadCosts().checks.length);
    expect(lines.filter((line) => line.verdict === 'fail')).toEqual([
      expect.objectContaining({ file: 'specs/part3/firewalls.spec.ts', rules: expect.arrayContaining([FAULT]) }),
    ]);
    expect(run.stderr).toMatch(/conformance: rules \d+ pass, 1 fail, 0 error, .*→ .*report\.html/);
    // Only the command's own lines: a library's warning (once vitest's on a deprecated import) is noise to a user.
    expect(run.stderr.split('\n').filter((line) => line && !line.startsWith('conformance: '))).toEqual([]);
  });

  it('writes results.json, compliance.html and junit.xml where it was told to', () => {
    expect(results.failures).toEqual([expect.objectContaining({ rule: FAULT, file: 'specs/part3/firewalls.spec.ts' })]);
    const failing = results.rules.find((rule) => rule.id === FAULT)!.checks.find((check) => check.verdict === 'fail')!;
    expect(failing.evidence!.length).toBeGreaterThan(0);
    expect(JSON.stringify(failing.evidence)).toContain('Bearer [REDACTED]');
    expect(readFileSync(paths.html, 'utf8')).toContain(`id="fail-${FAULT}"`);
    const junit = readFileSync(paths.junit, 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(junit.match(/<testcase /g)).toHaveLength(results.checkList.length);
    expect(junit.match(/<failure /g)).toHaveLength(1);
  });

  it('writes Allure results labelled with rule ids, rendered into a single-file Allure report', () => {
    const allureResults = join(paths.out, 'allure-results');
    const all = readdirSync(allureResults)
      .filter((file) => file.endsWith('-result.json'))
      .map(
        (file) =>
          JSON.parse(readFileSync(join(allureResults, file), 'utf8')) as {
            status: string;
            labels: Array<{ name: string; value: string }>;
            steps: Array<{ attachments: unknown[] }>;
          },
      );
    // Allure counts what compliance.html counts for the checks the run chose (the filter's others are never entered):
    // a result per check, its status the check's verdict.
    const statuses = (list: string[]) => list.reduce<Record<string, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
    const ALLURE_STATUS: Record<string, string> = { pass: 'passed', fail: 'failed', error: 'broken', skip: 'skipped', disabled: 'skipped' };
    const loaded = results.checkList.filter((check) => loadedFiles().has(check.file) && check.message !== FILTERED_OUT);
    expect(statuses(all.map((result) => result.status))).toEqual(statuses(loaded.map((check) => ALLURE_STATUS[check.verdict]!)));
    expect(JSON.parse(readFileSync(join(allureResults, 'categories.json'), 'utf8'))).toEqual(ALLURE_CATEGORIES);
    const failed = all.filter((result) => result.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.labels).toEqual(
      expect.arrayContaining([
        { name: 'rule', value: FAULT },
        { name: 'story', value: FAULT },
        { name: 'epic', value: 'Document 3' },
      ]),
    );
    expect(JSON.stringify(failed[0])).toContain('evidence (tokens redacted)');
    const report = join(paths.out, 'allure-report', 'index.html');
    expect(existsSync(report)).toBe(true);
    expect(readdirSync(join(paths.out, 'allure-report')).filter((file) => file.endsWith('.html'))).toEqual(['index.html']);
    const page = readFileSync(report, 'utf8');
    expect(page).not.toMatch(/googletagmanager|<script[^>]+src="https?:/);
  });

  it('gives a replay command that runs just that check again and fails the same rule', () => {
    const replay = results.failures[0]!.replay;
    expect(replay).toMatch(/^npx conformance run /);
    const again = join(work, 'replay');
    const words = replay.split(' ').slice(2);
    const replayed = conformance([...words, '--out', again, '--progress', 'quiet', '--no-allure']);
    expect(replayed.code, replayed.stderr.slice(-2000)).toBe(1);
    expect(replayed.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^conformance: rules .* 1 fail/)]);
    const second = JSON.parse(readFileSync(join(again, 'results.json'), 'utf8')) as Results;
    expect(second.failures.map((failure) => failure.rule)).toEqual([FAULT]);
    expect(second.run.seed).toBe(77);
    const ran = second.checkList.filter((check) => check.verdict !== 'disabled');
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.every((check) => check.file === 'specs/part3/firewalls.spec.ts' && check.rules.includes(FAULT))).toBe(true);
  }, 300_000);

  it('re-renders the same HTML and JUnit from results.json with `report --from`', () => {
    const dir = join(work, 'rerendered');
    const report = conformance(['report', '--from', paths.json, '--out', dir]);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(dir, 'compliance.html'), 'utf8')).toBe(readFileSync(paths.html, 'utf8'));
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toBe(readFileSync(paths.junit, 'utf8'));
  });
});

describe('bad report input or settings', () => {
  it('`report --from` gets one clear line and exit 2', () => {
    const cases: Array<[string, RegExp]> = [
      [join(work, 'nowhere.json'), /^conformance: cannot read .*nowhere\.json: ENOENT\n$/],
      [BIN, /^conformance: .*conformance\.js is not valid JSON\n$/],
    ];
    for (const [from, message] of cases) {
      const result = conformance(['report', '--from', from]);
      expect(result.code, from).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });

  it('the report settings refuse bad values with one line, from flags, the environment or a config file', () => {
    expect(() => configFromOptions({ progress: 'fancy' }, {})).toThrow(/flags \(progress\): progress is one of tty, plain, quiet, jsonl, got "fancy"/);
    expect(() => configFromOptions({}, { CONFORMANCE_ALLURE: 'maybe' })).toThrow(/environment \(allure\): allure is true or false, got "maybe"/);
    const file = join(work, 'config.json');
    writeFileSync(file, JSON.stringify({ html: 'a.html', junit: 'b.xml', json: 'c.json', allure: false, progress: 'quiet' }));
    expect(configFromOptions({ config: file, json: 'flag.json' }, { CONFORMANCE_JUNIT: 'env.xml' })).toMatchObject({
      html: 'a.html',
      junit: 'env.xml',
      json: 'flag.json',
      allure: false,
      progress: 'quiet',
    });
    expect(configFromOptions({ allure: false }, {}).allure).toBe(false);
  });
});

// Each filter change lays out the whole expanded page again: 3 s alone, past 30 s once in CI beside the mutation matrix.
describe('compliance.html in headless Chromium', { timeout: 120_000 }, () => {
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (request) => requested.push(request.url()));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`file://${paths.html}`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  const visibleRules = () => page.locator('li.rule:visible').count();

  it('shows the target, the date, the documents version, the score and the counts at the top', async () => {
    await expect(page.locator('#target').innerText()).resolves.toContain('embedded reference emulator');
    await expect(page.locator('#documents-version').innerText()).resolves.toBe('version 4.123.1');
    await expect(page.locator('#date').innerText()).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    await expect(page.locator('#score').innerText()).resolves.toBe(`${results.score.percent!.toFixed(1)} %`);
    for (const status of ['pass', 'fail', 'error', 'skip', 'disabled'] as const)
      await expect(page.locator(`.count[data-count="${status}"] b`).innerText()).resolves.toBe(results.summary[status].toLocaleString('en-US'));
    expect(await page.locator('.count[data-count="fail"] b').isVisible()).toBe(true);
  });

  it("shows the failing rule's evidence when expanded, with its replay command", async () => {
    const failure = page.locator(`article[id="fail-${FAULT}"]`);
    await expect(failure.isVisible()).resolves.toBe(true);
    await expect(failure.locator('.replay code').innerText()).resolves.toBe(results.failures[0]!.replay);
    const evidence = failure.locator('details.evidence').first();
    await evidence.locator('summary').first().click();
    const exchanges = evidence.locator('.exchange');
    await expect(exchanges.first().isVisible()).resolves.toBe(true);
    const last = exchanges.last();
    await last.locator('details').last().locator('summary').click();
    await expect(last.locator('pre.response').innerText()).resolves.toMatch(/^HTTP 200 \(\d+ ms\)/);
    await expect(last.locator('.reqline').innerText()).resolves.toMatch(/PUT \/v4\/networking\/firewalls\/\d+/);
  });

  it('filters rules by status and by area', async () => {
    const total = results.rules.length;
    expect(await visibleRules()).toBeGreaterThan(0);
    await expect(page.locator('#shown').innerText()).resolves.toBe(`${total} of ${total} rules shown`);
    await page.locator('button#expand-all').click();
    for (const status of ['pass', 'error', 'skip', 'disabled', 'untested']) await page.locator(`input[name=status][value=${status}]`).uncheck();
    await expect(page.locator('#shown').innerText()).resolves.toBe(`${results.summary.fail} of ${total} rules shown`);
    expect(await visibleRules()).toBe(results.summary.fail);
    expect(await page.locator(`li[id="rule-${FAULT}"]`).isVisible()).toBe(true);
    await page.locator('input[name=status][value=fail]').uncheck();
    expect(await page.locator(`article[id="fail-${FAULT}"]`).isVisible()).toBe(false);
    for (const status of ['pass', 'fail', 'error', 'skip', 'disabled', 'untested']) await page.locator(`input[name=status][value=${status}]`).check();
    await page.locator('select#area').selectOption('Firewalls');
    const areas = await page.locator('li.rule:visible').evaluateAll((items) => [...new Set(items.map((item) => (item as HTMLElement).dataset.area))]);
    expect(areas).toEqual(['Firewalls']);
    expect(await page.locator('table.endpoints tr[data-area="Firewalls"]:visible').count()).toBeGreaterThan(0);
    expect(await page.locator('table.endpoints tbody tr:not([data-area="Firewalls"]):visible').count()).toBe(0);
    await page.locator('select#area').selectOption('');
  });

  it('fits a narrow window without sideways scrolling', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('loads nothing but the file itself and runs no script from a response body', () => {
    expect(requested.filter((url) => !url.startsWith('file://'))).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it('makes a screenshot (saved for the README with UPDATE_REPORT_SCREENSHOT=1)', async () => {
    await page.locator('button#collapse-all').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    const file = join(work, 'compliance-report.png');
    await page.screenshot({ path: file, clip: { x: 0, y: 0, width: 1280, height: 1250 }, fullPage: true });
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    if (SCREENSHOT) {
      mkdirSync(join(ROOT, 'docs'), { recursive: true });
      copyFileSync(file, join(ROOT, 'docs', 'compliance-report.png'));
    }
  });
});
