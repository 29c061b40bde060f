import { build } from 'tsup';

// Every end-to-end and bundle test runs the real dist/ files, so they are rebuilt once per test run. This is npm test's
// build step too: it used to build before vitest as well, the same files twice.
export default async function setup(): Promise<void> {
  await build({ silent: true });
}
