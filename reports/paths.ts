// Where a run's reports go: each file can be named on its own; the rest land in the output folder.
import { join } from 'node:path';
import type { SuiteConfig } from '../harness/config.js';

export interface ReportPaths {
  json: string;
  html: string;
  junit: string;
  /** Written by allure-vitest during the run. */
  allureResults: string;
  /** The single-file Allure report (index.html inside). */
  allureReport: string;
}

export function reportPaths(config: Pick<SuiteConfig, 'out' | 'json' | 'html' | 'junit'>): ReportPaths {
  return {
    json: config.json ?? join(config.out, 'results.json'),
    html: config.html ?? join(config.out, 'compliance.html'),
    junit: config.junit ?? join(config.out, 'junit.xml'),
    allureResults: join(config.out, 'allure-results'),
    allureReport: join(config.out, 'allure-report'),
  };
}
