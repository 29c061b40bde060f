import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commonJsAssignments, undeclaredGlobals } from './bundle-globals.js';

const root = join(import.meta.dirname, '..', '..');
const clientBundle = join(root, 'dist', 'client.js');
const serverBundle = join(root, 'dist', 'server.js');

describe('the client bundle', () => {
  it('uses only plain V8 and the CitizenFX client globals: no Node, no fetch, no window or document', () => {
    expect(undeclaredGlobals(clientBundle, { lib: ['lib.es2020.d.ts'], types: ['@citizenfx/client'] })).toEqual([]);
  });

  it('is caught referencing a Node or Web global (the check itself can fail)', () => {
    const probe = join(root, 'test', 'build', 'fixtures', 'uses-web-and-node.js');
    expect(undeclaredGlobals(probe, { lib: ['lib.es2020.d.ts'], types: ['@citizenfx/client'] })).toEqual([
      'Buffer',
      'document',
      'fetch',
      'process',
      'require',
      'window',
    ]);
  });
});

describe.each([
  ['client', clientBundle],
  ['server', serverBundle],
])('the %s bundle', (_side, file) => {
  it('assigns nothing to exports or module, which FXServer turns into its export proxy', () => {
    expect(commonJsAssignments(file, readFileSync(file, 'utf8'))).toEqual([]);
  });
});

describe('the CommonJS check', () => {
  it('finds assignments to exports and module', () => {
    const code = 'exports.a = 1; module.exports = {}; Object.defineProperty(exports, "b", {}); let x = 1;';
    expect(commonJsAssignments('probe.js', code)).toHaveLength(3);
  });
});
