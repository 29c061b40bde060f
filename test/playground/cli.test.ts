import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ky from 'ky';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePlaygroundOptions } from '../../playground/cli-options.js';
import {
  killCliProcesses,
  isListening as listening,
  startCli,
  startNpmScript,
} from '../mock-panel/support/cli-process.js';
import { redisAvailable } from '../support/redis-server.js';

afterEach(killCliProcesses);

const PLAYGROUND_TESTS = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');

describe('npm start (the playground)', () => {
  it('prints the dashboard and a token, serves the page and three demo players, and exits 0 on SIGINT', async () => {
    const cli = startCli('playground/cli.ts', ['--port', '0', '--refresh-interval', '15s']);
    const [, url] = await cli.lineMatching(/Dashboard: (http:\/\/127\.0\.0\.1:\d+)\/$/);
    const [, token] = await cli.lineMatching(/Token \(type it into the page\): (\S+)$/);
    await cli.lineMatching(/refreshes a profile after 15 s \(Config\.RefreshIntervalMs\)/);
    await cli.lineMatching(/3 demo players have joined/);

    const page = await ky.get(`${url}/`).text();
    expect(page).toContain('id="token"');
    expect(page).not.toContain(token);
    const state = await ky
      .get(`${url}/__playground/state`, { headers: { authorization: `Bearer ${token}` } })
      .json<{ players: Array<{ name: string }> }>();
    expect(state.players.map((player) => player.name)).toEqual(['Alex Mercer', 'Jamie Rivera', 'Riley Chen']);

    const shown = await ky
      .get(`${url}/__playground/state`, { headers: { authorization: `Bearer ${token}` } })
      .json<{ console: Array<{ text: string }> }>();
    expect(shown.console.map((line) => line.text).join('\n')).toContain('RefreshIntervalMs = 15000 is below 60000');

    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout).toContain('playground stopped');
  }, 60_000);

  it('keeps a given LEO_API_TOKEN out of its output', async () => {
    const cli = startCli('playground/cli.ts', ['--port', '0'], { LEO_API_TOKEN: 'given-playground-token-9' });
    await cli.lineMatching(/Token: the value of LEO_API_TOKEN/);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout.join('\n')).not.toContain('given-playground-token-9');
  }, 60_000);

  it('stops cleanly on a SIGTERM sent the moment it prints its first line', async () => {
    const cli = startCli('playground/cli.ts', ['--port', '0'], { LEO_API_TOKEN: 'given-playground-token-9' });
    await cli.lineMatching(/./);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout).toContain('playground stopped');
  }, 60_000);

  it('stops and frees its port, exiting 0, when npm run playground gets SIGTERM (as from docker stop)', async () => {
    const cli = startNpmScript('playground', ['--port', '0'], { LEO_API_TOKEN: 'given-playground-token-9' });
    const [, port] = await cli.lineMatching(/Dashboard: http:\/\/127\.0\.0\.1:(\d+)\/$/);
    await cli.lineMatching(/3 demo players have joined/);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout).toContain('playground stopped');
    expect(await listening(Number(port))).toBe(false);
  }, 60_000);

  it('runs the playground from npm start as npm run playground does, after the build', async () => {
    const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(scripts.start).toBe(`npm run build && ${scripts.playground}`);
  });

  it('exits 2 with the usage on a bad flag', async () => {
    const cli = startCli('playground/cli.ts', ['--port', 'many']);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('Usage:');
  });

  it('exits 2 naming --refresh-interval when its value is no duration within 1s to 24h', async () => {
    const cli = startCli('playground/cli.ts', ['--refresh-interval', '500ms']);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain(
      "--refresh-interval must be a duration from 1s to 24h, like 15s, 2m or 15000 (milliseconds); got '500ms'",
    );
    expect(cli.stderr()).toContain('--refresh-interval <t>');
  });
});

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

describe('the playground’s --resource and --cfg', () => {
  const parse = (argv: string[]) => parsePlaygroundOptions(argv, PLAYGROUND_TESTS);

  it('reads each --resource from where the command was typed, named by its folder, in order', () => {
    expect(parse(['--resource', 'fixtures/js_mdt', '--resource', './fixtures/lua_mdt/'])).toMatchObject({
      kind: 'run',
      options: {
        resources: [
          { name: 'js_mdt', dir: join(PLAYGROUND_TESTS, 'fixtures/js_mdt') },
          { name: 'lua_mdt', dir: join(PLAYGROUND_TESTS, 'fixtures/lua_mdt') },
        ],
        serverCfg: [],
      },
    });
  });

  it('reads the lines of each --cfg file that say something, in order', () => {
    expect(parse(['--cfg', 'fixtures/extra.cfg', '--cfg=fixtures/extra.cfg'])).toMatchObject({
      kind: 'run',
      options: {
        serverCfg: [
          'set mdt_callsign_prefix "1-ADAM"',
          'setr mdt_theme "dark"',
          'set mdt_callsign_prefix "1-ADAM"',
          'setr mdt_theme "dark"',
        ],
      },
    });
  });

  it.each([
    [
      ['--resource', 'no-such-folder'],
      `--resource no-such-folder: ${join(PLAYGROUND_TESTS, 'no-such-folder')} is not a folder`,
    ],
    [
      ['--resource', 'fixtures/extra.cfg'],
      `--resource fixtures/extra.cfg: ${join(PLAYGROUND_TESTS, 'fixtures/extra.cfg')} is not a folder`,
    ],
    [
      ['--resource', 'fixtures/lua_mdt', '--resource', '../playground/fixtures/lua_mdt'],
      '--resource ../playground/fixtures/lua_mdt: another --resource is named lua_mdt too, and a server runs one resource of each name',
    ],
    [['--resource'], '--resource needs a value, like ../my-mdt'],
    [['--cfg', 'missing.cfg'], `--cfg missing.cfg: ${join(PLAYGROUND_TESTS, 'missing.cfg')} cannot be read (ENOENT)`],
    [['--cfg', '--port', '0'], '--cfg needs a value, like extra.cfg'],
  ])('refuses %j with a usage error', (argv, message) => {
    expect(parse(argv)).toEqual({ kind: 'usage-error', message });
  });

  it('refuses a folder named bridge: the playground runs the bridge itself', () => {
    const dir = mkdtempSync(join(tmpdir(), 'playground-own-'));
    try {
      mkdirSync(join(dir, 'bridge'));
      writeFileSync(join(dir, 'bridge', 'fxmanifest.lua'), "fx_version 'cerulean'\n");
      expect(parsePlaygroundOptions(['--resource', 'bridge'], dir)).toEqual({
        kind: 'usage-error',
        message:
          '--resource bridge: the folder is named bridge, the name of the bridge the playground runs; rename your copy',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the playground’s --servers and --no-redis', () => {
  it.each([
    [['--servers', '2'], 2, true],
    [['--servers=4', '--no-redis'], 4, false],
    [['--servers', '1'], 1, true],
    [[], 1, true],
  ])('reads %j as %i servers, Redis %s', (argv, servers, redis) => {
    expect(parsePlaygroundOptions(['--port', '0', ...argv])).toMatchObject({
      kind: 'run',
      options: { port: 0, servers, redis },
    });
  });

  it.each([['0'], ['5'], ['two'], ['1.5']])('refuses --servers %s with a usage error', (value) => {
    expect(parsePlaygroundOptions(['--servers', value])).toEqual({
      kind: 'usage-error',
      message: `--servers must be a whole number from 1 to 4; got '${value}'`,
    });
  });

  it('refuses --servers without a value, and --no-redis for one server', () => {
    expect(parsePlaygroundOptions(['--servers', '--port', '0'])).toEqual({
      kind: 'usage-error',
      message: '--servers needs a value, like 2',
    });
    expect(parsePlaygroundOptions(['--no-redis'])).toEqual({
      kind: 'usage-error',
      message: '--no-redis goes with --servers 2 or more: one server needs no Redis',
    });
  });
});

describe('the playground’s --refresh-interval', () => {
  it.each([
    ['15s', 15_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['15000', 15_000],
    ['1000ms', 1_000],
  ])('reads %s as %i ms, next to the mock panel’s flags', (text, ms) => {
    for (const argv of [
      ['--port', '0', '--refresh-interval', text],
      [`--refresh-interval=${text}`, '--port', '0'],
    ]) {
      expect(parsePlaygroundOptions(argv)).toMatchObject({ kind: 'run', options: { port: 0, refreshIntervalMs: ms } });
    }
  });

  it('leaves the interval to config.lua when not given', () => {
    const parsed = parsePlaygroundOptions(['--port', '0']);
    expect(parsed.kind === 'run' && parsed.options.refreshIntervalMs).toBeUndefined();
  });

  it.each([['999'], ['25h'], ['15 minutes'], ['-5s'], ['1.5s'], ['']])('refuses %j with a usage error', (text) => {
    expect(parsePlaygroundOptions(['--refresh-interval', text])).toMatchObject({
      kind: 'usage-error',
      message: expect.stringContaining('--refresh-interval must be a duration'),
    });
  });

  it('refuses the flag without a value, and still reports the mock panel’s own bad flags', () => {
    expect(parsePlaygroundOptions(['--refresh-interval'])).toEqual({
      kind: 'usage-error',
      message: '--refresh-interval needs a value, like 15s',
    });
    expect(parsePlaygroundOptions(['--refresh-interval', '15s', '--port', 'many'])).toMatchObject({
      kind: 'usage-error',
      message: expect.stringContaining('--port'),
    });
  });
});
