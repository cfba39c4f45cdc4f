// The Allure renderer's own process: started at the lowest priority, so that it takes the cores the checks leave idle,
// and back at the run's priority once the run waits for it (at the lowest, other work on the machine starves it).
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { AllureRenderer } from '../../reports/allure.js';

/** A results folder holding one passed result. */
function resultsIn(out: string): string {
  const results = join(out, 'allure-results');
  mkdirSync(results, { recursive: true });
  const uuid = '00000000-0000-4000-8000-000000000001';
  writeFileSync(
    join(results, `${uuid}-result.json`),
    JSON.stringify({ uuid, name: 'a check', fullName: 'a check', status: 'passed', stage: 'finished', start: 1, stop: 2 }),
  );
  return results;
}

it('runs at the lowest priority, and a render without results rejects with one line saying so', async () => {
  const out = mkdtempSync(join(tmpdir(), 'allure-renderer-'));
  const renderer = new AllureRenderer(join(out, 'allure-report'), 'priority');
  expect(renderer.pid).toBeDefined();
  expect(getPriority(renderer.pid)).toBe(19);
  await expect(renderer.render(join(out, 'no-results'))).rejects.toThrow(/no Allure results/);
});

it("renders at the run's priority once the run waits for it", async () => {
  const out = mkdtempSync(join(tmpdir(), 'allure-renderer-'));
  const renderer = new AllureRenderer(join(out, 'allure-report'), 'priority');
  const rendered = renderer.render(resultsIn(out));
  expect(getPriority(renderer.pid)).toBe(getPriority());
  expect(existsSync(await rendered)).toBe(true);
}, 60_000);

it('where a niceness may not be lowered (an unprivileged user), renders from a renderer started afresh at the run’s priority', async () => {
  const out = mkdtempSync(join(tmpdir(), 'allure-renderer-'));
  const asked: number[] = [];
  const unprivileged = ((pid: number, priority: number) => {
    asked.push(priority);
    if (priority < getPriority(pid)) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
    setPriority(pid, priority);
  }) as typeof setPriority;
  const renderer = new AllureRenderer(join(out, 'allure-report'), 'priority', { prioritize: unprivileged });
  const lowered = renderer.pid!;
  const rendered = renderer.render(resultsIn(out));
  expect(asked).toEqual([19, getPriority()]);
  expect(renderer.pid).not.toBe(lowered);
  expect(getPriority(renderer.pid)).toBe(getPriority());
  expect(existsSync(await rendered)).toBe(true);
  // The lowered renderer is stopped.
  await vi.waitFor(() => expect(() => process.kill(lowered, 0)).toThrow(), { timeout: 20_000, interval: 100 });
}, 60_000);
