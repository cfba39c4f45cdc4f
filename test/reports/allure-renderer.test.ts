// The Allure renderer's own process: started at the lowest priority, so that it takes the cores the checks leave idle.
import { mkdtempSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { AllureRenderer } from '../../reports/allure.js';

it('runs at the lowest priority, and a render without results rejects with one line saying so', async () => {
  const out = mkdtempSync(join(tmpdir(), 'allure-renderer-'));
  const renderer = new AllureRenderer(join(out, 'allure-report'), 'priority');
  expect(renderer.pid).toBeDefined();
  expect(getPriority(renderer.pid)).toBe(19);
  await expect(renderer.render(join(out, 'no-results'))).rejects.toThrow(/no Allure results/);
});
