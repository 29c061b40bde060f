import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageResource } from '../../scripts/package.js';
import { REPO_ROOT } from '../e2e/support/world.js';
import { brokenLinks, headingAnchors, isRelative, markdownLinks } from './support/markdown.js';

describe('the Markdown files of the package', () => {
  let outDir: string;
  let folder: string;
  let markdown: string[];
  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'bridge-package-links-'));
    // dist/ was built for this test run (test/global-setup.ts).
    const packaged = await packageResource({ outDir, build: false, root: REPO_ROOT });
    folder = packaged.folder;
    markdown = packaged.files.filter((file) => file.endsWith('.md'));
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('are the owner README, the owner-facing docs and the types README, which link to each other', () => {
    expect(markdown).toEqual([
      'README.md',
      'docs/budget.md',
      'docs/integrations.md',
      'docs/locale-and-notifications.md',
      'docs/reliability.md',
      'types/README.md',
    ]);
    const readmeLinks = markdownLinks(readFileSync(join(folder, 'README.md'), 'utf8')).map((link) => link.target);
    for (const file of markdown.filter((file) => file !== 'README.md')) expect(readmeLinks).toContain(file);
  });

  it('have no relative link or anchor that does not resolve inside the package', () => {
    expect(brokenLinks(folder)).toEqual([]);
  });
});

describe('the link check', () => {
  let folder: string;
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), text);
  };
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'link-check-'));
    write('LICENSE', 'MIT');
    write(
      'docs/guide.md',
      ['# Guide', '', '## The `bridge status` command', '', '## Duty (on/off)', '', '## Duty (on/off)', ''].join('\n'),
    );
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('passes links to files, folders and headings that exist, and leaves absolute links and code alone', () => {
    write(
      'README.md',
      [
        '# Bridge',
        '[licence](LICENSE) [guide](docs/guide.md#the-bridge-status-command) ![docs](docs/ "the folder")',
        '[again](docs/guide.md#duty-onoff-1) [top](#bridge) <a href="docs/guide.md">guide</a>',
        '[site](https://example.com/missing.md) [mail](mailto:owner@example.com) `[code](missing.md)`',
        '```md',
        '[in a fence](missing.md)',
        '```',
        '[ref]: docs/guide.md',
      ].join('\n'),
    );
    expect(brokenLinks(folder)).toEqual([]);
  });

  it('names each link that points at nothing in the folder, with its file and line', () => {
    write(
      'README.md',
      [
        '# Bridge',
        'See [the source](../server/main.ts), [screenshots](docs/screenshots/dashboard.png) and',
        '[a heading](docs/guide.md#no-such-heading), [here](#nowhere), <img src="logo.png">.',
        '[ref]: examples/README.md',
      ].join('\n'),
    );
    expect(brokenLinks(folder)).toEqual([
      'README.md:2: ../server/main.ts (outside the package)',
      'README.md:2: docs/screenshots/dashboard.png (no such file in the package)',
      'README.md:3: docs/guide.md#no-such-heading (no heading with that anchor)',
      'README.md:3: #nowhere (no heading with that anchor)',
      'README.md:3: logo.png (no such file in the package)',
      'README.md:4: examples/README.md (no such file in the package)',
    ]);
  });

  it('reads links in nested docs relative to their own folder', () => {
    write('README.md', '# Bridge\n');
    write('docs/deeper.md', '[up](../LICENSE) [here](guide.md) [wrong](LICENSE)\n');
    expect(brokenLinks(folder)).toEqual(['docs/deeper.md:1: LICENSE (no such file in the package)']);
    rmSync(join(folder, 'docs/deeper.md'));
  });

  it('makes anchors as GitHub does', () => {
    expect([
      ...headingAnchors(
        '# Metrics for Prometheus and Grafana\n## `config.lua`\n### Budget (`server/panel/`)\n## A\n## A',
      ),
    ]).toEqual(['metrics-for-prometheus-and-grafana', 'configlua', 'budget-serverpanel', 'a', 'a-1']);
    expect(['docs/x.md', '#top', 'https://x.y', '//cdn.x/y', 'mailto:a@b'].map(isRelative)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
