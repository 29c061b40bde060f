import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The body of the first fenced block of `lang` after `heading`. */
function exampleUnder(markdown: string, heading: string, lang: string): string | undefined {
  const section = markdown.slice(markdown.indexOf(`\n${heading}\n`));
  return new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\`\\n`).exec(section)?.[1];
}

it('docs/simulator.md shows, as its example, the test that npm test runs', () => {
  const shown = exampleUnder(read('docs/simulator.md'), '## A test', 'ts');
  expect(shown).toBe(read('test/e2e/simulator-doc-example.test.ts'));
});
