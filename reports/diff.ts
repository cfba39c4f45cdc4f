// Two runs compared (two targets, or one target over two releases): the rules whose status changed, with what each
// run saw of them. Statuses are compared as judged, before any expectations file excused a fail.
import escapeHtml from 'escape-html';
import { withoutExpectations } from './expectations.js';
import { STYLE, badge, html, renderFailingCheck } from './html.js';
import type { Results, RuleCheck, RuleResult } from './results.js';

type Status = RuleResult['status'];
type ChangeKind = 'fails now' | 'fixed' | 'changed';

interface RunSide {
  file: string;
  target: string;
  runId: string;
  date: string;
  documentsVersion: string;
}

interface RuleChange {
  id: string;
  level: RuleResult['level'];
  sentence: string;
  area: string;
  kind: ChangeKind;
  from: Status;
  to: Status;
  /** What each run saw: its failing checks with their evidence, or the checks that did not pass and why. */
  before: RuleCheck[];
  after: RuleCheck[];
}

export interface ResultsDiff {
  before: RunSide;
  after: RunSide;
  changed: RuleChange[];
  counts: Record<ChangeKind, number>;
}

const KINDS: readonly ChangeKind[] = ['fails now', 'fixed', 'changed'];
/** Checks shown per rule and side. */
const EVIDENCE_PER_SIDE = 3;

const failing = (status: Status) => status === 'fail' || status === 'warning';

function kindOf(from: Status, to: Status): ChangeKind {
  if (failing(to) && !failing(from)) return 'fails now';
  if (failing(from) && !failing(to)) return 'fixed';
  return 'changed';
}

/** The checks that explain a rule's status: its fails and findings, else those that did not pass. */
function evidenceOf(rule: RuleResult | undefined): RuleCheck[] {
  if (!rule) return [];
  const failed = rule.checks.filter((entry) => entry.replay);
  return (failed.length ? failed : rule.checks.filter((entry) => entry.verdict !== 'pass' && entry.message)).slice(0, EVIDENCE_PER_SIDE);
}

function sideOf(file: string, results: Results): RunSide {
  return { file, target: results.target, runId: results.run.id, date: results.date, documentsVersion: results.documentsVersion };
}

export function diffResults(beforeFile: string, beforeResults: Results, afterFile: string, afterResults: Results): ResultsDiff {
  const before = withoutExpectations(beforeResults);
  const after = withoutExpectations(afterResults);
  const beforeRules = new Map(before.rules.map((rule) => [rule.id, rule]));
  const afterRules = new Map(after.rules.map((rule) => [rule.id, rule]));
  const ids = [...new Set([...beforeRules.keys(), ...afterRules.keys()])];
  const changed = ids.flatMap((id): RuleChange[] => {
    const was = beforeRules.get(id);
    const is = afterRules.get(id);
    const from = was?.status ?? 'untested';
    const to = is?.status ?? 'untested';
    if (from === to) return [];
    const rule = (is ?? was)!;
    return [
      { id, level: rule.level, sentence: rule.sentence, area: rule.area, kind: kindOf(from, to), from, to, before: evidenceOf(was), after: evidenceOf(is) },
    ];
  });
  changed.sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
  const counts = Object.fromEntries(KINDS.map((kind) => [kind, changed.filter((change) => change.kind === kind).length])) as Record<ChangeKind, number>;
  return { before: sideOf(beforeFile, before), after: sideOf(afterFile, after), changed, counts };
}

const sideLine = (side: RunSide) =>
  `${side.target} (run ${side.runId}, ${side.date.slice(0, 19).replace('T', ' ')}, documents ${side.documentsVersion}; ${side.file})`;

function checkLine(entry: RuleCheck): string {
  const message = (entry.message ?? entry.verdict).replace(/\s+/g, ' ');
  return `${entry.verdict} ${entry.name}: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`;
}

export function diffText(diff: ResultsDiff): string[] {
  const lines = [`before: ${sideLine(diff.before)}`, `after:  ${sideLine(diff.after)}`];
  lines.push(
    `${diff.changed.length} rule${diff.changed.length === 1 ? '' : 's'} changed status: ${KINDS.map((kind) => `${diff.counts[kind]} ${kind}`).join(', ')}`,
  );
  for (const change of diff.changed) {
    lines.push('', `${change.kind.toUpperCase()}  ${change.id} (${change.level})  ${change.from} → ${change.to}`, `  ${change.sentence}`);
    for (const [side, entries] of [
      ['before', change.before],
      ['after', change.after],
    ] as const)
      for (const entry of entries) lines.push(`  ${side}: ${checkLine(entry)}`);
  }
  return lines;
}

function renderSide(title: string, status: Status, entries: RuleCheck[]) {
  return html`<div class="side"><h4>${title} ${badge(status)}</h4>${entries.length ? entries.map(renderFailingCheck) : html`<p class="none">no check of this rule failed or was held back here</p>`}</div>`;
}

export function renderDiffHtml(diff: ResultsDiff): string {
  const changes = diff.changed.map(
    (change) => html`<article class="change" id="change-${change.id}" data-kind="${change.kind}">
<h3><span class="kind">${change.kind}</span> <code>${change.id}</code> <span class="level">${change.level}</span> ${badge(change.from)} → ${badge(change.to)}</h3>
<p class="sentence">${change.sentence}</p>
<div class="sides">${renderSide('before', change.from, change.before)}${renderSide('after', change.to, change.after)}</div>
</article>`,
  );
  const body = html`<header class="top"><h1>Conformance diff</h1>
<dl class="meta"><div><dt>before</dt><dd id="before">${sideLine(diff.before)}</dd></div><div><dt>after</dt><dd id="after">${sideLine(diff.after)}</dd></div></dl>
<p id="counts">${diff.changed.length} rules changed status: ${KINDS.map((kind) => `${diff.counts[kind]} ${kind}`).join(', ')}</p></header>
<main>${changes.length ? changes : html`<p class="none">No rule changed status.</p>`}</main>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(`Conformance diff: ${diff.changed.length} rules changed`)}</title>
<style>${STYLE}
article.change{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px;margin:0 0 12px}
article.change[data-kind="fails now"]{border-left:5px solid var(--fail)}article.change[data-kind="fixed"]{border-left:5px solid var(--pass)}
.kind{font-size:.75rem;text-transform:uppercase;color:var(--muted)}button.copy{display:none}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:12px}.side{min-width:0}h4{margin:6px 0}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
