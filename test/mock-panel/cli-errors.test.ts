// npm run mock-panel as a process (cli.test.ts): its errors, each with its exit code and message.
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { killCliProcesses, startCli as startScript } from './support/cli-process';

afterEach(killCliProcesses);

const startCli = (args: string[], env: Record<string, string | undefined> = {}) =>
  startScript('mock-panel/cli.ts', args, env);

describe('npm run mock-panel', () => {
  it('exits 2 with a message and the usage for an unknown flag', async () => {
    const cli = startCli(['--prot', '4000']);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(/--prot/);
    expect(cli.stderr()).toMatch(/Usage: npm run mock-panel/);
  });

  it('exits 2 for a port that is not a number', async () => {
    const cli = startCli(['--port', 'eighty']);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(/--port must be a whole number/);
  });

  it('exits 1 naming the file when the data file is invalid', async () => {
    const cli = startCli(['--port', '0', '--data', 'package.json']);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toMatch(/package\.json is invalid[\s\S]*guildId/);
  });
});

/** A port some other program holds for the test's duration. */
async function occupiedPort(): Promise<{ port: number; release(): Promise<void> }> {
  const holder = createServer();
  holder.listen(0, '127.0.0.1');
  await once(holder, 'listening');
  const address = holder.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { port: address.port, release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

describe.each([
  { script: 'mock-panel/cli.ts', name: 'mock-panel' },
  { script: 'playground/cli.ts', name: 'playground' },
])('$name on a busy port', ({ script, name }) => {
  it('says the port is in use and what to pass instead, and exits 1', async () => {
    const busy = await occupiedPort();
    try {
      const cli = startScript(script, ['--port', String(busy.port), '--host', '127.0.0.1'], { LEO_API_TOKEN: 't' });
      expect(await cli.exited).toBe(1);
      expect(cli.stderr()).toBe(
        `${name}: port ${busy.port} is in use: pass --port 0 for a free one, or another port\n`,
      );
    } finally {
      await busy.release();
    }
  }, 60_000);
});
