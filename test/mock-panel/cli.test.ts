import { once } from 'node:events';
import { createServer } from 'node:net';
import ky from 'ky';
import { afterEach, describe, expect, it } from 'vitest';
import { DepartmentsResponseSchema, departmentsPath } from '../../shared/contract';
import { isListening, killCliProcesses, startNpmScript, startCli as startScript } from './support/cli-process';
import { TWO_DEPARTMENTS } from './support/demo-users';

afterEach(killCliProcesses);

const startCli = (args: string[], env: Record<string, string | undefined> = {}) =>
  startScript('mock-panel/cli.ts', args, env);

async function departmentsStatus(url: string, token: string) {
  const response = await ky.get(`${url}${departmentsPath(TWO_DEPARTMENTS)}`, {
    headers: { authorization: `Bearer ${token}` },
    throwHttpErrors: false,
    retry: 0,
  });
  if (response.ok) DepartmentsResponseSchema.parse(await response.json());
  return response.status;
}

describe('npm run mock-panel', () => {
  it('prints its URL, serves the panel with LEO_API_TOKEN, and exits 0 on SIGTERM', async () => {
    const cli = startCli(['--port', '0', '--host', '127.0.0.1'], { LEO_API_TOKEN: 'cli-token' });
    const [, url] = await cli.lineMatching(/listening on (http:\/\/127\.0\.0\.1:\d+)$/);
    await cli.lineMatching(/set BRIDGE_LEO_API_TOKEN "<the value of LEO_API_TOKEN>"$/);
    expect(cli.stdout).toContain(`  set BRIDGE_API_BASE "${url}"`);
    expect(cli.stdout).toContain(`Dashboard: ${url}/ (type the token into the page)`);
    expect(await departmentsStatus(url as string, 'cli-token')).toBe(200);
    expect(await departmentsStatus(url as string, 'other-token')).toBe(401);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout.join('\n')).not.toMatch(/cli-token/);
  });

  it('generates and prints a token when LEO_API_TOKEN is unset, and exits 0 on SIGINT', async () => {
    const cli = startCli(['--port', '0']);
    const [, token] = await cli.lineMatching(/generated token (\S+)$/);
    const [, url] = await cli.lineMatching(/listening on (http:\/\/\S+)$/);
    await cli.lineMatching(new RegExp(`set BRIDGE_LEO_API_TOKEN "${token}"$`));
    expect(await departmentsStatus(url as string, token as string)).toBe(200);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('stops cleanly on a SIGTERM sent the moment it prints its first line', async () => {
    const cli = startCli(['--port', '0'], { LEO_API_TOKEN: 'a-tester-token' });
    await cli.lineMatching(/./);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout).toContain('mock-panel stopped');
  });

  it('stops and frees its port, exiting 0, when npm run mock-panel gets SIGTERM (as from docker stop)', async () => {
    const cli = startNpmScript('mock-panel', ['--port', '0'], { LEO_API_TOKEN: 'a-tester-token' });
    const [, port] = await cli.lineMatching(/listening on http:\/\/127\.0\.0\.1:(\d+)$/);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout).toContain('mock-panel stopped');
    expect(await isListening(Number(port))).toBe(false);
  }, 60_000);

  it('stops and exits 0 on Ctrl+C under npm run mock-panel (SIGINT to the whole process group)', async () => {
    const cli = startNpmScript('mock-panel', ['--port', '0'], { LEO_API_TOKEN: 'a-tester-token' });
    const [, port] = await cli.lineMatching(/listening on http:\/\/127\.0\.0\.1:(\d+)$/);
    process.kill(-(cli.child.pid as number), 'SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout).toContain('mock-panel stopped');
    expect(await isListening(Number(port))).toBe(false);
  }, 60_000);

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
