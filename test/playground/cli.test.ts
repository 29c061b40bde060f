import ky from 'ky';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePlaygroundOptions } from '../../playground/cli-options.js';
import { killCliProcesses, startCli } from '../mock-panel/support/cli-process.js';

afterEach(killCliProcesses);

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
