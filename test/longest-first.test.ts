// The test command's order names files and folders by path: one renamed or removed would drop out of it unseen.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { RANKED } from './longest-first.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

it('every file and folder the order ranks first is there, once', () => {
  expect(RANKED.filter((path) => !existsSync(ROOT + path))).toEqual([]);
  expect(new Set(RANKED).size).toBe(RANKED.length);
});
