// compliance.html: one self-contained page (inline CSS and JS, no network) built from results.json. Everything that
// comes from the target or the run is escaped: response bodies are hostile input. Filtering is progressive: the page
// reads fully without JavaScript, the script only hides what the status and area filters leave out.
import escapeHtml from 'escape-html';
import type { Exchange } from '../harness/http.js';
import { AREAS } from './areas.js';
import { RULE_STATUSES, VERDICTS, checkTitle, type EndpointCoverage, type Results, type RuleCheck, type RuleResult, type RuleStatus } from './results.js';

type Status = RuleStatus | 'untested';
const STATUSES: readonly Status[] = [...RULE_STATUSES, 'untested'];
/** Worst first: what a reader must see first. */
const SEVERITY: ReadonlyArray<Status | 'finding'> = ['fail', 'finding', 'expected', 'error', 'warning', 'skip', 'pass', 'disabled', 'untested'];
/** Checks listed under a rule (fails are always listed; the rest are in junit.xml and results.json). */
const CHECKS_PER_RULE = 12;

/** Tagged template: interpolated values are escaped unless they are already rendered markup. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}
type Part = Markup | string | number | null | undefined | false | Array<Markup | string>;
export function html(strings: TemplateStringsArray, ...values: Part[]): Markup {
  const render = (value: Part): string => {
    if (value instanceof Markup) return value.text;
    if (Array.isArray(value)) return value.map(render).join('');
    if (value === null || value === undefined || value === false) return '';
    return escapeHtml(String(value));
  };
  return new Markup(strings.reduce((out, string, index) => out + string + (index < values.length ? render(values[index]) : ''), ''));
}

/** A rule's sentence as the documents write it: escaped, with its `code` spans rendered as code. */
const sentence = (text: string) => new Markup(escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>'));

const formatNumber = (n: number) => n.toLocaleString('en-US');
const label = (status: string) => (status === 'untested' ? 'not judged' : status);
export const badge = (status: string, text = label(status)) => html`<span class="badge st-${status}">${text}</span>`;

function worstOf(statuses: Iterable<Status>): Status {
  let worst: Status = 'untested';
  for (const status of statuses) if (SEVERITY.indexOf(status) < SEVERITY.indexOf(worst)) worst = status;
  return worst;
}

function countsLine(counts: Partial<Record<string, number>>): Markup {
  const parts = SEVERITY.filter((status) => counts[status]).map(
    (status) => html`<span class="mini st-${status}">${formatNumber(counts[status]!)} ${label(status)}</span>`,
  );
  return html`<span class="minis">${parts}</span>`;
}

function bodyText(body: unknown): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : JSON.stringify(body, null, 2);
}

function headersText(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function renderExchange(exchange: Exchange, index: number, offending: boolean): Markup {
  const outcome = exchange.error ? `no response (${exchange.error})` : `HTTP ${exchange.status}`;
  const request = [
    `${exchange.method} ${exchange.path}`,
    headersText(exchange.requestHeaders),
    exchange.requestBody === undefined ? '' : `\n${bodyText(exchange.requestBody)}`,
  ]
    .filter(Boolean)
    .join('\n');
  const notes = [exchange.notJson ? 'the body is not JSON' : '', exchange.truncated ? 'the body was cut at the capture limit' : ''].filter(Boolean).join('; ');
  const response = [
    `${outcome} (${Math.round(exchange.durationMs)} ms)${notes ? ` — ${notes}` : ''}`,
    headersText(exchange.responseHeaders),
    exchange.body === undefined ? '' : `\n${bodyText(exchange.body)}`,
  ]
    .filter(Boolean)
    .join('\n');
  return html`<div class="exchange${offending ? ' offending' : ''}">
<p class="reqline"><b>${index + 1}.</b> <code>${exchange.method} ${exchange.path}</code> → <span class="${exchange.status === 0 || exchange.status >= 500 ? 'ko' : ''}">${outcome}</span>${offending ? html` <span class="offending-mark">the exchange that broke the rule</span>` : ''}</p>
<details><summary>request</summary><pre>${request}</pre></details>
<details><summary>response</summary><pre class="response">${response}</pre></details>
</div>`;
}

/** A command to copy: the replay of a failure, or the curl of its failing exchange. */
function command(name: string, text: string): Markup {
  return html`<div class="command ${name}"><span>${name}</span><code>${text}</code><button type="button" class="copy" data-copy="${text}">copy</button></div>`;
}

export function renderFailingCheck(entry: RuleCheck): Markup {
  const evidence = entry.evidence ?? [];
  return html`<div class="failing-check">
<p class="check-name">${badge(entry.verdict)} ${entry.name}</p>
${entry.file ? html`<p class="file">spec file <code>${entry.file}</code></p>` : ''}
${entry.message ? html`<p class="message">${entry.message}</p>` : ''}
${entry.counterexample !== undefined ? html`<dl class="replay-data"><dt>fast-check seed</dt><dd><code>${entry.seed}</code> (the shrinking path is in results.json)</dd><dt>counterexample</dt><dd><pre class="counterexample">${entry.counterexample}</pre></dd></dl>` : ''}
${entry.replay ? command('replay', entry.replay) : ''}
${entry.curl ? html`<details class="curl"><summary>curl: the failing request again (its token from the environment: $TOKEN for the run's own)</summary>${command('curl', entry.curl)}</details>` : ''}
<details class="evidence"><summary>evidence: ${evidence.length} request${evidence.length === 1 ? '' : 's'} (tokens redacted)${entry.failingExchange !== undefined ? `; #${entry.failingExchange + 1} broke the rule` : ''}</summary>
${evidence.map((exchange, index) => renderExchange(exchange, index, index === entry.failingExchange))}
</details>
</div>`;
}

/** A table row of the documents read as text: its cells joined. */
const asText = (quote: string) =>
  quote.startsWith('|')
    ? quote
        .replace(/^\|\s*|\s*\|$/g, '')
        .split(/\s*\|\s*/)
        .filter(Boolean)
        .join(' — ')
    : quote;

/** The document's own words for a rule, quoted. */
const quotesOf = (rule: RuleResult) =>
  rule.quotes?.length
    ? html`<blockquote class="quote" title="the document's own words">${rule.quotes.map((quote) => html`<p>${sentence(asText(quote))}</p>`)}</blockquote>`
    : '';

/** Where the documents state a rule (document, heading, anchor), and their words. */
const whereSaid = (results: Results, rule: RuleResult) =>
  html`<p class="where">${results.documents[rule.document].title} › ${rule.section} <code title="where the documents say it">${results.documents[rule.document].file}#${rule.anchor}</code> · ${rule.area}</p>${quotesOf(rule)}`;

function renderFailures(results: Results): Markup {
  const failed = results.rules.filter((rule) => rule.status === 'fail');
  const articles = failed.map(
    (rule) => html`<article class="failure" id="fail-${rule.id}" data-status="fail" data-area="${rule.area}">
<h3>${badge('fail')} <code>${rule.id}</code> <span class="level">${rule.level}</span></h3>
<p class="sentence">${sentence(rule.sentence)}</p>
${whereSaid(results, rule)}
${rule.checks.filter((entry) => entry.replay).map(renderFailingCheck)}
</article>`,
  );
  return html`<section id="failures">
<h2>Failures <span class="count-badge">${failed.length}</span></h2>
${results.setupError ? html`<p class="message" id="setup-error">${results.setupError}: nothing was judged.</p>` : failed.length ? articles : html`<p class="none">No rule failed: the target conforms to every rule that was judged.</p>`}
</section>`;
}

const until = (expires: string | undefined) => (expires ? html` <span class="expires">(until ${expires})</span>` : '');

/** What the run's expectations file excused, and the entries the run found out of date. */
function renderExpectations(results: Results): Markup {
  const report = results.expectations;
  if (!report) return html``;
  const byId = new Map(results.rules.map((rule) => [rule.id, rule]));
  const ruleLink = (id: string) => html`<a href="#rule-${id}"><code>${id}</code></a>`;
  const expected = report.expected.map((id) => {
    const rule = byId.get(id)!;
    return html`<article class="expected-fail" id="expected-${id}" data-status="expected" data-area="${rule.area}">
<h3>${badge('expected')} ${ruleLink(id)} <span class="level">${rule.level}</span></h3>
<p class="sentence">${sentence(rule.sentence)}</p>
<p class="reason">expected: ${report.entries[id]!.reason}${until(report.entries[id]!.expires)}</p>
<details><summary>what failed</summary>${rule.checks
      .filter((entry) => entry.replay)
      .slice(0, 3)
      .map(renderFailingCheck)}</details>
</article>`;
  });
  const listed = (ids: string[], why: string) =>
    html`<ul class="expectation-list">${ids.map((id) => html`<li>${ruleLink(id)} — ${report.entries[id]!.reason}${until(report.entries[id]!.expires)}${why ? html` <span class="why">${why}</span>` : ''}</li>`)}</ul>`;
  return html`<section id="expectations">
<h2>Expectations <span class="count-badge">${report.expected.length} expected · ${report.unexpectedlyPassing.length} unexpectedly passing · ${report.expired.length} expired</span></h2>
<p class="hint">From <code>${report.file}</code>: an expected fail does not fail the run; a fail the file does not expect does.</p>
${report.unexpectedlyPassing.length ? html`<h3 id="unexpectedly-passing">Unexpectedly passing: take them out of the file</h3>${listed(report.unexpectedlyPassing, '')}` : ''}
${report.expired.length ? html`<h3 id="expired">Expired: their fails count again</h3>${listed(report.expired, '')}` : ''}
${expected.length ? expected : html`<p class="none">No expected fail in this run.</p>`}
</section>`;
}

/** SHOULD rules a check saw diverge: inferred rules, never fails, listed apart so a team can act on them. */
function renderWarnings(results: Results): Markup {
  const warned = results.rules.filter((rule) => rule.warning);
  const articles = warned.map(
    (rule) => html`<article class="warned" id="warn-${rule.id}" data-status="warning" data-area="${rule.area}">
<h3>${badge('warning')} <code>${rule.id}</code> <span class="level">${rule.level}</span></h3>
<p class="sentence">${sentence(rule.sentence)}</p>
${whereSaid(results, rule)}
<p class="warning">${rule.warning}</p>
${rule.checks
  .filter((entry) => entry.replay)
  .slice(0, 3)
  .map(renderFailingCheck)}
</article>`,
  );
  return html`<section id="warnings">
<h2>Warnings <span class="count-badge">${warned.length}</span></h2>
<p class="hint">Inferred (SHOULD) rules a check saw diverge: never a fail, unless the run was told <code>--fail-on warning</code>.</p>
${warned.length ? articles : html`<p class="none">No warning.</p>`}
</section>`;
}

/** "3 of 5 checks judged" for a rule some of whose checks were skipped, errored or disabled. */
function judgementNote(rule: RuleResult): Markup | string {
  if (rule.judgement !== 'partial') return '';
  return html` <span class="partial" title="some of its checks were skipped, errored or disabled">partly judged: ${rule.checksJudged} of ${rule.checksTotal} checks</span>`;
}

function renderRule(rule: RuleResult): Markup {
  const disabled = rule.checks.filter((entry) => entry.verdict === 'disabled').length;
  const sorted = rule.checks.filter((entry) => entry.verdict !== 'disabled').sort((a, b) => SEVERITY.indexOf(a.verdict) - SEVERITY.indexOf(b.verdict));
  const listed = sorted.filter((entry, index) => index < CHECKS_PER_RULE || entry.replay);
  const more = sorted.length - listed.length;
  // Under its rule a check is named by its title: the rule ids it declares are in the Allure and JUnit reports.
  const checks = listed.map(
    (entry) =>
      html`<li>${badge(entry.verdict)} <span class="check-title">${checkTitle(entry.name)}</span>${entry.message ? html`<span class="check-message">${entry.message}</span>` : ''}</li>`,
  );
  return html`<li class="rule" id="rule-${rule.id}" data-status="${rule.status}" data-area="${rule.area}">
<details><summary>${badge(rule.status)}${rule.warning && rule.status !== 'warning' ? badge('warning') : ''} <code class="rule-id">${rule.id}</code> <span class="level">${rule.level}</span> <span class="sentence">${sentence(rule.sentence)}</span>${judgementNote(rule)}</summary>
<div class="rule-body">
${quotesOf(rule)}
${rule.warning ? html`<p class="warning">warning (inferred rule, never a fail): ${rule.warning}</p>` : ''}
${rule.untestable ? html`<p class="untestable">not black-box testable: ${rule.untestable}</p>` : ''}
${rule.expected ? html`<p class="reason">expected to fail: ${rule.expected.reason}${until(rule.expected.expires)} <a href="#expected-${rule.id}">what failed ↑</a></p>` : ''}
${rule.status === 'fail' ? html`<p><a href="#fail-${rule.id}">evidence and replay command ↑</a></p>` : ''}
${checks.length ? html`<ul class="checks">${checks}</ul>` : rule.untestable || disabled ? '' : html`<p class="none">no check reached this rule in this run</p>`}
${disabled ? html`<p class="more">${disabled} check${disabled === 1 ? '' : 's'} disabled by the --rules / --areas filter</p>` : ''}
${more > 0 ? html`<p class="more">… and ${more} more checks (junit.xml and results.json list them all)</p>` : ''}
</div></details></li>`;
}

function renderRules(results: Results): Markup {
  const documents = (Object.keys(results.documents) as Array<keyof Results['documents']>).map((documentId) => {
    const rules = results.rules.filter((rule) => rule.document === documentId);
    const sections = new Map<string, RuleResult[]>();
    for (const rule of rules) sections.set(rule.section, [...(sections.get(rule.section) ?? []), rule]);
    const counts = (list: RuleResult[]) => Object.fromEntries(STATUSES.map((status) => [status, list.filter((rule) => rule.status === status).length]));
    const sectionBlocks = [...sections].map(([section, list]) => {
      const open = list.some((rule) => rule.status === 'fail' || rule.status === 'error' || rule.warning);
      return html`<details class="section group"${new Markup(open ? ' open' : '')}><summary><span class="section-name">${section}</span> ${countsLine(counts(list))}</summary><ul class="rules">${list.map(renderRule)}</ul></details>`;
    });
    const coverage = results.documentCoverage?.[documentId];
    const covered = coverage
      ? html`<p class="hint document-coverage">Its ${formatNumber(coverage.units)} sentences and table rows: ${formatNumber(coverage.judged)} judged by rules, ${formatNumber(coverage.excused)} excused (overview, definition, not shown, not observable: <code>conformance coverage</code> lists them).</p>`
      : '';
    return html`<section class="document group" id="doc-${documentId}"><h3>${results.documents[documentId].title} ${countsLine(counts(rules))}</h3>${covered}${sectionBlocks}</section>`;
  });
  return html`<section id="rules"><h2>Rules by document and section <button type="button" id="expand-all">expand all</button> <button type="button" id="collapse-all">collapse all</button></h2>${documents}</section>`;
}

function endpointStatus(endpoint: EndpointCoverage): Status {
  if (!endpoint.requested) return 'untested';
  return worstOf(VERDICTS.filter((verdict) => endpoint.verdicts[verdict] > 0));
}

function renderEndpoints(results: Results): Markup {
  const requested = results.endpoints.filter((endpoint) => endpoint.requested).length;
  const rows = results.endpoints.map((endpoint) => {
    const status = endpointStatus(endpoint);
    return html`<tr data-status="${status}" data-area="${endpoint.area}"><td class="method">${endpoint.method}</td><td class="path"><code>${endpoint.path}</code></td><td class="area-cell">${endpoint.area}</td><td class="num">${formatNumber(endpoint.requests)}</td><td>${endpoint.requested ? countsLine(endpoint.verdicts) : badge('untested', 'not requested')}</td></tr>`;
  });
  return html`<section id="endpoints">
<h2>Endpoint coverage <span class="count-badge">${requested} / ${results.endpoints.length} requested</span></h2>
<p class="hint">Requests sent to each endpoint of the catalogue, and the verdicts of the checks that sent them.</p>
<table class="endpoints"><thead><tr><th class="method">method</th><th>path</th><th class="area-cell">area</th><th class="num">requests</th><th>checks</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}

function shardNote(results: Results): string {
  const { merged, run } = results;
  if (merged)
    return ` · merged from ${merged.from.length} results (shards ${merged.shards.join(', ')})${run.shard ? ': a partial run, not every shard of the run' : ''}`;
  return run.shard ? ` · shard ${run.shard} (a partial run: this shard's spec files only)` : '';
}

function renderHeader(results: Results): Markup {
  const run = results.run;
  const score = results.score.percent === null ? '–' : `${results.score.percent.toFixed(1)} %`;
  const varied = [
    ...(run.emulatorFaults.length ? [`with faults: ${run.emulatorFaults.join(', ')}`] : []),
    ...(run.emulatorVariations?.length ? [`with variations: ${run.emulatorVariations.join(', ')}`] : []),
  ];
  const target = varied.length ? `${results.target} (${varied.join('; ')})` : results.target;
  // Results written before expectations existed have no `expected` count; the box shows only with an expectations file.
  const counts = RULE_STATUSES.filter((status) => status !== 'expected' || results.expectations).map(
    (status) => html`<li class="count st-${status}" data-count="${status}"><b>${formatNumber(results.summary[status] ?? 0)}</b> ${status}</li>`,
  );
  const judged = results.judgement;
  const checks = VERDICTS.filter((verdict) => results.checks[verdict]).map((verdict) => `${formatNumber(results.checks[verdict])} ${verdict}`);
  return html`<header class="top">
<h1>Cloud Hosting Service API conformance</h1>
<dl class="meta">
<div><dt>target</dt><dd id="target">${target}</dd></div>
<div><dt>date</dt><dd id="date">${results.date.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</dd></div>
<div><dt>documents</dt><dd id="documents-version">version ${results.documentsVersion}</dd></div>
<div><dt>run</dt><dd id="run">${run.id} · seed ${run.seed}${run.rules ? ` · rules ${run.rules.join(', ')}` : ''}${run.areas ? ` · areas ${run.areas.join(', ')}` : ''}${run.shuffle ? ` · spec files shuffled with ${run.shuffle}` : ''}${shardNote(results)}</dd></div>
</dl>
<div class="scoreboard">
<div class="score ${results.summary.fail ? 'has-fails' : 'no-fails'}"><span class="score-value" id="score">${score}</span><span class="score-label">conformance score</span></div>
<div class="tally">
<ul class="counts" aria-label="rules per status">${counts}<li class="count st-untested" data-count="untested"><b>${formatNumber(results.untested)}</b> not judged</li></ul>
<p class="judged" id="judgement">Rules <b data-judgement="full">${formatNumber(judged.full)}</b> fully judged · <b data-judgement="partial">${formatNumber(judged.partial)}</b> partly judged (a check of theirs skipped, errored or was disabled) · <b data-judgement="none">${formatNumber(judged.none)}</b> not judged · ${formatNumber(judged.untestable)} not black-box testable.</p>
<p class="definition">Score: ${results.score.passedMust} of ${results.score.judgedMust} judged MUST rules passed — ${results.score.definition}. Counts are rules; the ${formatNumber(results.checkList.length)} checks behind them: ${checks.join(', ')}.</p>
</div>
</div>
</header>`;
}

function renderFilters(results: Results): Markup {
  const usedAreas = new Set([...results.rules.map((rule) => rule.area), ...results.endpoints.map((endpoint) => endpoint.area)]);
  const areas = AREAS.filter((area) => usedAreas.has(area));
  return html`<nav class="filters" aria-label="filters">
<fieldset class="status-filter"><legend>status</legend>${STATUSES.filter((status) => status !== 'expected' || results.expectations).map((status) => html`<label class="chip st-${status}"><input type="checkbox" name="status" value="${status}" checked> ${label(status)}</label>`)}</fieldset>
<label class="area-filter">area <select id="area">${html`<option value="">all areas</option>`}${areas.map((area) => html`<option value="${area}">${area}</option>`)}</select></label>
<span class="jump"><a href="#failures">failures</a> · ${results.expectations ? html`<a href="#expectations">expectations</a> · ` : ''}<a href="#warnings">warnings</a> · <a href="#rules">rules</a> · <a href="#endpoints">endpoints</a></span>
<span id="shown" class="shown" aria-live="polite"></span>
</nav>`;
}

export const STYLE = `
:root{--pass:#1a7f37;--fail:#cf222e;--expected:#d4a72c;--error:#bc4c00;--skip:#8250df;--disabled:#6e7781;--untested:#8c959f;--finding:#cf222e;--warning:#9a6700;--bg:#f6f8fa;--card:#fff;--line:#d0d7de;--text:#1f2328;--muted:#59636e}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--text);background:var(--bg)}
header.top,main,nav.filters{max-width:1180px;margin:0 auto;padding:0 16px}
h1{font-size:1.5rem;margin:20px 0 8px}
h2{font-size:1.2rem;margin:28px 0 10px;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
h3{font-size:1rem;margin:0 0 6px;display:flex;flex-wrap:wrap;gap:6px;align-items:center}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code,pre,p,dd,td,summary{overflow-wrap:anywhere}
pre{white-space:pre-wrap;background:#f6f8fa;border:1px solid var(--line);border-radius:6px;padding:8px;margin:6px 0;max-height:420px;overflow:auto}
dl.meta{display:flex;flex-wrap:wrap;gap:4px 28px;margin:0 0 14px}
dl.meta div{min-width:0}
dl.meta dt{font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
dl.meta dd{margin:0;font-weight:600}
.scoreboard{display:flex;flex-wrap:wrap;gap:16px;align-items:stretch;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}
.score{display:flex;flex-direction:column;justify-content:center;min-width:150px;padding-right:16px;border-right:1px solid var(--line)}
.score-value{font-size:2.4rem;font-weight:700;line-height:1.1}
.score.has-fails .score-value{color:var(--fail)}.score.no-fails .score-value{color:var(--pass)}
.score-label{color:var(--muted);font-size:.85rem}
.tally{flex:1 1 380px;min-width:0}
ul.counts{list-style:none;display:flex;flex-wrap:wrap;gap:8px;margin:0 0 8px;padding:0}
.count{border:1px solid var(--line);border-left:5px solid var(--c,#999);border-radius:6px;padding:4px 10px;background:#fff}
.count b{font-size:1.25rem;margin-right:2px}
.definition{margin:0;color:var(--muted);font-size:.85rem}
.st-pass{--c:var(--pass)}.st-fail{--c:var(--fail)}.st-error{--c:var(--error)}.st-skip{--c:var(--skip)}.st-disabled{--c:var(--disabled)}.st-untested{--c:var(--untested)}.st-finding{--c:var(--finding)}.st-warning{--c:var(--warning)}.st-expected{--c:var(--expected)}
.badge{display:inline-block;min-width:4.6em;text-align:center;border-radius:999px;padding:0 8px;font-size:.75rem;font-weight:600;color:#fff;background:var(--c);vertical-align:1px}
.mini{font-size:.75rem;color:var(--c);font-weight:600;margin-right:8px;white-space:nowrap}
.minis{font-weight:400}
nav.filters{position:sticky;top:0;z-index:2;background:var(--bg);border-bottom:1px solid var(--line);padding-top:8px;padding-bottom:8px;display:flex;flex-wrap:wrap;gap:8px 18px;align-items:center;margin-top:12px}
fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:6px;align-items:center}
legend{float:left;margin-right:6px;color:var(--muted);font-size:.85rem}
.chip{border:1px solid var(--c);color:var(--c);border-radius:999px;padding:1px 10px 1px 6px;font-size:.85rem;cursor:pointer;background:#fff;white-space:nowrap}
.chip input{accent-color:var(--c);margin:0 4px 0 0;vertical-align:-2px}
.area-filter{color:var(--muted);font-size:.85rem}
select{font:inherit;max-width:100%}
.jump,.shown{font-size:.85rem;color:var(--muted)}
.count-badge{font-size:.8rem;font-weight:600;background:#eaeef2;border-radius:999px;padding:0 8px}
article.failure{background:var(--card);border:1px solid var(--line);border-left:5px solid var(--fail);border-radius:8px;padding:12px 14px;margin:0 0 12px}
.sentence{margin:0 0 4px}.quote{margin:4px 0 8px;padding:2px 10px;border-left:3px solid var(--muted);font-style:italic}.quote p{margin:2px 0}.where,.file,.hint{color:var(--muted);font-size:.85rem;margin:0 0 6px}
.failing-check{border-top:1px dashed var(--line);padding-top:8px;margin-top:8px}
.check-name{font-weight:600;margin:0 0 4px}
.message{margin:0 0 6px;color:var(--fail)}
dl.replay-data{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:6px 0}
dl.replay-data dt{color:var(--muted);font-size:.85rem}dl.replay-data dd{margin:0;min-width:0}
.command{display:flex;flex-wrap:wrap;gap:6px;align-items:center;background:#0d1117;color:#e6edf3;border-radius:6px;padding:6px 8px;margin:6px 0}
.command span{font-size:.75rem;text-transform:uppercase;color:#8b949e}
.command code{flex:1 1 240px;min-width:0;color:#e6edf3}
button{font:inherit;font-size:.8rem;border:1px solid var(--line);background:#fff;border-radius:6px;padding:1px 8px;cursor:pointer}
details>summary{cursor:pointer}
details.evidence>summary,details.curl>summary{color:var(--muted);font-size:.9rem}
.exchange{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 14px;margin:2px 0 2px 12px}
.exchange>details{font-size:.85rem;color:var(--muted)}.exchange>details[open]{flex-basis:100%;color:var(--text)}
.reqline{margin:0}.exchange.offending{border-left:3px solid var(--fail);padding-left:6px}.offending-mark{font-size:.75rem;font-weight:600;color:var(--fail)}.ko{color:var(--fail);font-weight:600}
section.document{margin-bottom:18px}
details.section{background:var(--card);border:1px solid var(--line);border-radius:8px;margin:0 0 6px;padding:6px 10px}
details.section>summary{font-weight:600}
ul.rules{list-style:none;margin:6px 0 0;padding:0}
li.rule{border-top:1px solid #eaeef2;padding:4px 0}
li.rule summary{list-style-position:outside;margin-left:14px}
.rule-id{font-weight:600}.level{font-size:.7rem;color:var(--muted);border:1px solid var(--line);border-radius:4px;padding:0 4px}
.rule-body{margin:4px 0 6px 18px;font-size:.9rem}
ul.checks{margin:4px 0;padding-left:18px}
ul.checks li{margin:2px 0}
.check-message{display:block;color:var(--muted);font-size:.85rem}
.warning{color:var(--warning)}.partial{font-size:.75rem;color:var(--skip);margin-left:6px;white-space:nowrap}.judged{margin:0 0 6px;font-size:.9rem}
article.expected-fail{background:var(--card);border:1px solid var(--line);border-left:5px solid var(--expected);border-radius:8px;padding:12px 14px;margin:0 0 12px}.reason{color:var(--muted)}.expires{white-space:nowrap}
article.warned{background:var(--card);border:1px solid var(--line);border-left:5px solid var(--warning);border-radius:8px;padding:12px 14px;margin:0 0 12px}.untestable,.none,.more{color:var(--muted)}
table.endpoints{width:100%;border-collapse:collapse;table-layout:fixed;background:var(--card);border:1px solid var(--line)}
table.endpoints th,table.endpoints td{border-bottom:1px solid #eaeef2;padding:4px 8px;text-align:left;vertical-align:top}
th.method,td.method{width:5.5em}th.num,td.num{width:6em;text-align:right}th.area-cell,td.area-cell{width:11em}
[hidden]{display:none!important}
section,article,li.rule{scroll-margin-top:96px}
@media (max-width:720px){
 .score{border-right:0;padding-right:0}
 table.endpoints,table.endpoints tbody,table.endpoints tr,table.endpoints td{display:block;width:auto}
 table.endpoints thead{display:none}
 table.endpoints tr{border-bottom:1px solid var(--line);padding:4px 0}
 table.endpoints td{border:0;padding:1px 8px;text-align:left}
 td.method{display:inline-block!important;font-weight:600}td.num::before{content:"requests: "}
 nav.filters{position:static}
}
@media print{nav.filters{display:none}}
`;

const SCRIPT = `
(function(){
  var boxes=[].slice.call(document.querySelectorAll('input[name=status]'));
  var area=document.getElementById('area');
  var shown=document.getElementById('shown');
  function apply(){
    var on={};boxes.forEach(function(b){on[b.value]=b.checked;});
    var a=area.value,visible=0,total=0;
    document.querySelectorAll('[data-status]').forEach(function(el){
      var show=!!on[el.dataset.status]&&(!a||el.dataset.area===a);
      el.hidden=!show;
      if(el.classList.contains('rule')){total++;if(show)visible++;}
    });
    document.querySelectorAll('.group').forEach(function(g){g.hidden=!g.querySelector('[data-status]:not([hidden])');});
    shown.textContent=visible+' of '+total+' rules shown';
  }
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  area.addEventListener('change',apply);
  function setAll(open){document.querySelectorAll('details.section').forEach(function(d){d.open=open;});}
  document.getElementById('expand-all').addEventListener('click',function(){setAll(true);});
  document.getElementById('collapse-all').addEventListener('click',function(){setAll(false);});
  document.querySelectorAll('button.copy').forEach(function(button){
    button.addEventListener('click',function(){
      if(navigator.clipboard)navigator.clipboard.writeText(button.dataset.copy).then(function(){button.textContent='copied';},function(){});
    });
  });
  if(location.hash){var t=document.getElementById(decodeURIComponent(location.hash.slice(1)));if(t&&t.closest('details'))t.closest('details').open=true;}
  apply();
})();
`;

export function renderHtml(results: Results): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(`Conformance ${results.score.percent ?? '–'} % — ${results.target}`)}</title>
<style>${STYLE}</style>
</head>
<body>
${renderHeader(results)}
${renderFilters(results)}
<main>
${renderFailures(results)}
${renderExpectations(results)}
${renderWarnings(results)}
${renderRules(results)}
${renderEndpoints(results)}
<p class="hint">Generated from results.json (${escapeHtml(results.finished)}). junit.xml and results.json beside this file list every check.</p>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
