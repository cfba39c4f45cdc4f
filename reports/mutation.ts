// The mutation matrix (test/mutation): which emulator fault the suite detected, and by which check; written as
// mutation.json and rendered as a self-contained mutation.html.
export interface FaultOutcome {
  id: string;
  rule: string;
  does: string;
  detected: boolean;
  /** The status the run gave the fault's rule (`fail` when detected). */
  ruleStatus: string;
  /** The checks that failed on the fault's rule, or found a response breaking it. */
  detectedBy: Array<{ check: string; message: string }>;
  /** Other rules the same run failed (collateral: one fault can break what depends on it). */
  otherFails: string[];
  durationMs: number;
  /** Why the run could not be judged (no results, a timeout). */
  problem?: string;
}

export interface Matrix {
  started: string;
  finished: string;
  seed: number;
  /** fast-check runs per property of valid bodies, and of bodies breaking one rule. */
  runs: number;
  violationRuns: number;
  jobs: number;
  durationMs: number;
  faults: number;
  detected: number;
  outcomes: FaultOutcome[];
}

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The self-contained page of a matrix (this one and the variation matrix): a title, a summary, one table. */
export function matrixPage(page: { title: string; heading: string; summary: string; headers: string[]; rows: string[] }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1rem;color:#1d2330}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #dde;padding:.35rem .5rem;vertical-align:top;text-align:left}
tr.killed td:nth-child(2),tr.clean td:nth-child(2){color:#17702e;font-weight:600}tr.missed td:nth-child(2),tr.cried td:nth-child(2){color:#b3261e;font-weight:700}
.msg{color:#556;font-size:12px;overflow-wrap:anywhere}.check{margin-bottom:.3rem;overflow-wrap:anywhere}code{overflow-wrap:anywhere}
</style></head><body>
<h1>${escapeHtml(page.heading)}</h1>
${page.summary}
<table><thead><tr>${page.headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('')}</tr></thead>
<tbody>${page.rows.join('\n')}</tbody></table>
</body></html>
`;
}

/** A check's name with its message below it. */
export const checkCell = (check: { check: string; message: string }): string =>
  `<div class="check">${escapeHtml(check.check)}<div class="msg">${escapeHtml(check.message)}</div></div>`;

export function renderMutationHtml(matrix: Matrix): string {
  const missed = matrix.outcomes.filter((outcome) => !outcome.detected);
  const documents = ['P1', 'P2', 'P3'].map((part) => {
    const ofPart = matrix.outcomes.filter((outcome) => outcome.rule.startsWith(`${part}.`));
    return `<li>${part}: ${ofPart.filter((outcome) => outcome.detected).length} / ${ofPart.length}</li>`;
  });
  const rows = matrix.outcomes.map((outcome) => {
    const by = outcome.detectedBy.map(checkCell).join('');
    const why = outcome.detected
      ? by
      : `<div class="msg">rule status: ${escapeHtml(outcome.ruleStatus)}${outcome.problem ? ` — ${escapeHtml(outcome.problem)}` : ''}</div>`;
    const collateral = outcome.otherFails.length ? `<div class="msg">the same run also failed: ${outcome.otherFails.map(escapeHtml).join(', ')}</div>` : '';
    return `<tr class="${outcome.detected ? 'killed' : 'missed'}"><td><code>${escapeHtml(outcome.id)}</code><div class="msg">${escapeHtml(outcome.does)}</div></td><td>${outcome.detected ? 'detected' : 'MISSED'}</td><td>${why}${collateral}</td><td>${(outcome.durationMs / 1000).toFixed(1)} s</td></tr>`;
  });
  return matrixPage({
    title: `Mutation matrix: ${matrix.detected} / ${matrix.faults} faults detected`,
    heading: 'Mutation matrix',
    summary: `<p><strong>${matrix.detected} of ${matrix.faults}</strong> faults detected with their own rule id${missed.length ? ` — <strong>${missed.length} missed</strong>` : ''}.
Seed ${matrix.seed}, ${matrix.runs} runs per valid-body property, ${matrix.violationRuns} per violation property, ${matrix.jobs} workers, ${(matrix.durationMs / 1000).toFixed(0)} s (${escapeHtml(matrix.started)}).</p>
<ul>${documents.join('')}</ul>`,
    headers: ['Fault (what the emulator does wrong)', 'Verdict', 'Detected by', 'Run'],
    rows,
  });
}
