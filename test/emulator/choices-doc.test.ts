// The emulator's choices where the documents are silent have one source, the header of the file that makes them:
// the README's section is produced from the headers.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHOICE_SOURCES, choicesOf, withChoices } from '../../scripts/docs-choices.js';

describe("the emulator's choices", () => {
  it('every listed file says at least one choice in its header', () => {
    for (const { source } of CHOICE_SOURCES) expect(choicesOf(source).length, source).toBeGreaterThan(0);
  });

  it("README.md's section is the one the headers produce (`npm run docs:choices` rewrites it)", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(withChoices(readme) === readme, 'the README section is stale: run `npm run docs:choices`').toBe(true);
  });
});
