// npm 11.16+ reads `allowScripts` and npm 12 skips every install script it does not list: each dependency that has
// one must be approved or denied on purpose, so a fresh `npm ci` neither warns nor silently loses a needed step.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8'));

it('lists every dependency with an install script in allowScripts', () => {
  const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
  const { allowScripts = {} } = read('package.json') as { allowScripts?: Record<string, boolean> };
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  expect(withScripts.length).toBeGreaterThan(0);
  const named = new Set(Object.keys(allowScripts).map((key) => key.replace(/(?<=.)@.*$/, '')));
  expect([...new Set(withScripts)].filter((name) => !named.has(name))).toEqual([]);
});
