import { build } from 'tsup';
import { buildCliBundles } from './support/cli-bundles.js';

// Every end-to-end and bundle test runs the real dist/ files, so they are rebuilt once per test run. This is npm test's
// build step too: it used to build before vitest as well, the same files twice. The CLI tests' bundles are built
// beside it.
export default async function setup(): Promise<void> {
  await Promise.all([build({ silent: true }), buildCliBundles()]);
}
