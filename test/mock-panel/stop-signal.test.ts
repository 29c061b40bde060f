import { afterEach, expect, it } from 'vitest';
import { killCliProcesses, startCli } from './support/cli-process';

afterEach(killCliProcesses);

it.each(['SIGINT', 'SIGTERM'])('stops by itself when a second %s arrives while it stops', async (signal) => {
  const cli = startCli('test/mock-panel/support/stop-twice.ts', [signal]);
  expect(await cli.exited).toBe(0);
  expect(cli.stdout).toEqual(['stopped by itself']);
});
