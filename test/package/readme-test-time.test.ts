import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../e2e/support/world.js';

// How long `npm test` takes is measured for the README and said once: two figures leave the reader to guess which
// one is current.
const DURATION = /\babout (\d+(?:\.\d+)?) ?(s|min|minutes|seconds)\b/g;

describe('the README on how long npm test takes', () => {
  it('gives one figure, in one place', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const figures = readme
      .split(/\n\s*\n/)
      .filter((paragraph) => paragraph.includes('`npm test`'))
      .flatMap((paragraph) => [...paragraph.matchAll(DURATION)].map((match) => `${match[1]} ${match[2]}`));
    expect(figures).toHaveLength(1);
  });
});
