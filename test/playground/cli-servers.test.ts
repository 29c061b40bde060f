// npm start (the playground) as a process, as cli.test.ts: two servers of a community, and your own resources.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ky from 'ky';
import { afterEach, describe, expect, it } from 'vitest';
import { killCliProcesses, isListening as listening, startCli } from '../mock-panel/support/cli-process.js';
import { redisAvailable } from '../support/redis-server.js';

afterEach(killCliProcesses);

const PLAYGROUND_TESTS = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');

describe('npm start -- --servers 2 (a community of two servers)', () => {
  it.skipIf(!redisAvailable())(
    'starts a redis-server for both servers on a free port, shows both on the page, and stops it on SIGINT',
    async () => {
      const cli = startCli('playground/cli.ts', ['--port', '0', '--servers', '2']);
      await cli.lineMatching(/2 simulated servers behind one IP against the mock panel at http:\/\/127\.0\.0\.1:\d+$/);
      const [, port] = await cli.lineMatching(
        /One community: every bridge names the Redis at redis:\/\/127\.0\.0\.1:(\d+)\/0 \(BRIDGE_REDIS_URL\)/,
      );
      const [, url] = await cli.lineMatching(/Dashboard: (http:\/\/127\.0\.0\.1:\d+)\/$/);
      const [, token] = await cli.lineMatching(/Token \(type it into the page\): (\S+)$/);
      await cli.lineMatching(/3 demo players have joined, taking turns between the servers/);
      const state = await ky
        .get(`${url}/__playground/state`, { headers: { authorization: `Bearer ${token}` } })
        .json<{ players: Array<{ server: number; name: string }>; servers: unknown[]; redis: { url: string } }>();
      expect(state.players.map((player) => [player.server, player.name])).toEqual([
        [1, 'Alex Mercer'],
        [1, 'Riley Chen'],
        [2, 'Jamie Rivera'],
      ]);
      expect(state.servers).toHaveLength(2);
      expect(state.redis.url).toBe(`redis://127.0.0.1:${port}/0`);
      expect(await listening(Number(port))).toBe(true);

      cli.child.kill('SIGINT');
      expect(await cli.exited).toBe(0);
      expect(cli.stdout).toContain('playground stopped');
      expect(await listening(Number(port))).toBe(false);
    },
    90_000,
  );

  it('without redis-server, exits 1 saying how to install it or how to run without it, and starts nothing', async () => {
    const cli = startCli('playground/cli.ts', ['--port', '0', '--servers', '2'], {
      REDIS_SERVER: '/nonexistent/redis-server',
    });
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain('redis-server is not installed here');
    expect(cli.stderr()).toContain('sudo apt-get install redis-server');
    expect(cli.stderr()).toContain('npm start -- --servers 2 --no-redis');
    expect(cli.stdout.join('\n')).not.toContain('Dashboard');
  });

  it('with --no-redis, runs both servers alone and says so', async () => {
    const cli = startCli('playground/cli.ts', ['--port', '0', '--servers', '2', '--no-redis'], {
      REDIS_SERVER: '/nonexistent/redis-server',
    });
    await cli.lineMatching(/No Redis \(--no-redis\): each bridge believes it is alone/);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  }, 60_000);
});

describe('npm start -- --resource and --cfg (your own resources against the simulated bridge)', () => {
  it('runs a Lua and a JS resource after the bridge with the --cfg lines, and prints what they print', async () => {
    // Paths as the tester types them, from where they typed the command (npm passes that folder as INIT_CWD).
    const cli = startCli(
      'playground/cli.ts',
      [
        ...['--port', '0', '--resource', 'fixtures/lua_mdt', '--resource=fixtures/js_mdt'],
        ...['--cfg', 'fixtures/extra.cfg', '--cfg', 'fixtures/typo.cfg'],
      ],
      { LEO_API_TOKEN: 'given-playground-token-9', INIT_CWD: PLAYGROUND_TESTS },
    );
    await cli.lineMatching(/Your resource lua_mdt \(.*fixtures\/lua_mdt\) runs after the bridge/);
    await cli.lineMatching(/Your resource js_mdt \(.*fixtures\/js_mdt\) runs after the bridge/);
    await cli.lineMatching(/3 more server\.cfg lines from --cfg ran before the resources started/);
    // A line the server does not know is the tester's to fix: its answer is printed.
    await cli.lineMatching(/^\[server\] No such command sett\.$/);
    const [, url] = await cli.lineMatching(/Dashboard: (http:\/\/127\.0\.0\.1:\d+)\/$/);
    await cli.lineMatching(/3 demo players have joined/);
    const api = ky.create({
      prefixUrl: `${url}/__playground`,
      headers: { authorization: 'Bearer given-playground-token-9' },
      timeout: 20_000,
      retry: 0,
    });

    await api.post('players/1/duty', { json: { on: true } });
    // The Lua server script heard playerOnDuty and read the convar set by --cfg; its client got deptData and the
    // replicated convar (setr).
    await cli.lineMatching(
      /^\[server\] \[lua_mdt\] lua_mdt: Alex Mercer is on duty as 1-ADAM-1 in lspd \(department 1, rank 2\)$/,
    );
    await cli.lineMatching(/^\[client 1\] \[lua_mdt\] lua_mdt: my MDT opens for department 1, theme dark$/);
    await api.post('players/1/duty', { json: { on: false } });
    await cli.lineMatching(/^\[server\] \[js_mdt\] js_mdt: Alex Mercer went off duty; on duty now: 0$/);
    // The bridge's own lines stay on the page.
    expect(cli.stdout.some((line) => line.includes('[bridge]'))).toBe(false);

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  }, 60_000);

  it('exits 2 naming the folder when a --resource has no fxmanifest.lua, and starts nothing', async () => {
    const cli = startCli('playground/cli.ts', ['--port', '0', '--resource', 'fixtures'], {
      INIT_CWD: PLAYGROUND_TESTS,
    });
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain(
      `--resource fixtures: ${join(PLAYGROUND_TESTS, 'fixtures')} has no fxmanifest.lua, which every resource folder needs`,
    );
    expect(cli.stdout.join('\n')).not.toContain('Dashboard');
  });
});
