import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildNaiveBundle } from '../../bench/support/resources.js';

// `npm run bench` builds the naive baseline beside the bridge; a build that fails stops the whole bench before its
// first scenario (it did once tsup.config.ts gained the declaration build, which every tsup build merged in).
const root = mkdtempSync(join(tmpdir(), 'naive-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("builds the bench's naive baseline into one script, and nothing else", async () => {
  const bundle = await buildNaiveBundle(root);
  expect(readFileSync(bundle, 'utf8')).toContain('startNaiveBridge');
  expect(existsSync(join(root, 'naive-build', 'index.d.ts'))).toBe(false);
}, 60_000);
