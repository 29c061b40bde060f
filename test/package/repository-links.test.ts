import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../e2e/support/world.js';
import { brokenLinks } from './support/markdown.js';

// The repository's own Markdown (README, docs, examples, the mock panel's and the contract's READMEs), as a reader of
// the repository follows it; the package's copies are checked in package-links.test.ts.
const trackedMarkdown = (): string[] =>
  execFileSync('git', ['ls-files', '*.md'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && !file.startsWith('test/'));

describe("the repository's Markdown files", () => {
  it('are found', () => {
    expect(trackedMarkdown()).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'types/README.md']));
  });

  it('have no relative link or anchor that does not resolve in the repository', () => {
    expect(brokenLinks(REPO_ROOT, trackedMarkdown())).toEqual([]);
  });
});
