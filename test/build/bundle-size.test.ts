import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_BUNDLE_BUDGET_BYTES, overBudget, SERVER_BUNDLE_BUDGET_BYTES } from './bundle-budget.js';

const root = join(import.meta.dirname, '..', '..');

describe('the bundles built for this run', () => {
  it.each([
    ['dist/server.js', SERVER_BUNDLE_BUDGET_BYTES],
    ['dist/client.js', CLIENT_BUNDLE_BUDGET_BYTES],
  ])('%s stays within its size budget', (file, budget) => {
    expect(overBudget(join(root, file), budget)).toBeUndefined();
  });
});

describe('the size budget check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bundle-budget-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fileOf = (bytes: number) => {
    const file = join(dir, `server-${bytes}.js`);
    writeFileSync(file, Buffer.alloc(bytes, 'x'));
    return file;
  };

  it('passes a bundle of exactly its budget', () => {
    expect(overBudget(fileOf(SERVER_BUNDLE_BUDGET_BYTES), SERVER_BUNDLE_BUDGET_BYTES)).toBeUndefined();
  });

  it('fails a bundle one byte over, naming the file, its size, the budget and how to find out why', () => {
    const problem = overBudget(fileOf(SERVER_BUNDLE_BUDGET_BYTES + 1), SERVER_BUNDLE_BUDGET_BYTES);
    expect(problem).toContain(`server-${SERVER_BUNDLE_BUDGET_BYTES + 1}.js is 250.0 KB (256001 bytes)`);
    expect(problem).toContain('over its budget of 250.0 KB');
    expect(problem).toContain('npm run bundle-report');
    expect(problem).toContain("esbuild's metafile");
  });
});
