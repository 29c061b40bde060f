import { build } from 'tsup';

// Every end-to-end and bundle test runs the real dist/ files, so they are rebuilt once per test run.
export default async function setup(): Promise<void> {
  await build({ silent: true });
}
