import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../e2e/support/world.js';

// How long `npm test` takes is measured, so it lives in docs/budget.md with the commit it was measured at. The README
// keeps no measured figure: one there would go stale at the next measurement. Two figures in docs/budget.md leave
// the reader to guess which one is current on an idle machine.
const DURATION = /\babout (\d+(?:\.\d+)?) ?(s|min|minutes|seconds)\b/g;
const NPM_TEST_SECTION = '## How long `npm test` takes';

function durations(text: string): string[] {
  return [...text.matchAll(DURATION)].map((match) => `${match[1]} ${match[2]}`);
}

describe('how long npm test takes', () => {
  it('the README gives no figure for it', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const figures = readme
      .split(/\n\s*\n/)
      .filter((paragraph) => paragraph.includes('`npm test`'))
      .flatMap(durations);
    expect(figures).toEqual([]);
  });

  it('docs/budget.md gives one "about" figure, with the commit it was measured at', () => {
    const budget = readFileSync(join(REPO_ROOT, 'docs/budget.md'), 'utf8');
    const start = budget.indexOf(NPM_TEST_SECTION);
    expect(start).toBeGreaterThanOrEqual(0);
    const end = budget.indexOf('\n## ', start + NPM_TEST_SECTION.length);
    const section = budget.slice(start, end === -1 ? undefined : end);
    expect(durations(section)).toHaveLength(1);
    const sentence = section.split('\n').find((line) => durations(line).length > 0) ?? '';
    expect(sentence).toMatch(/measured at [0-9a-f]{7,40}\b/);
  });
});
