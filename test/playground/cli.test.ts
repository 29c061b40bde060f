import ky from 'ky';
import { afterEach, describe, expect, it } from 'vitest';
import { killCliProcesses, startCli } from '../mock-panel/support/cli-process.js';

afterEach(killCliProcesses);

describe('npm start (the playground)', () => {
  it('prints the dashboard and a token, serves the page and three demo players, and exits 0 on SIGINT', async () => {
    const cli = startCli('playground/cli.ts', ['--port', '0']);
    const [, url] = await cli.lineMatching(/Dashboard: (http:\/\/127\.0\.0\.1:\d+)\/$/);
    const [, token] = await cli.lineMatching(/Token \(type it into the page\): (\S+)$/);
    await cli.lineMatching(/3 demo players have joined/);

    const page = await ky.get(`${url}/`).text();
    expect(page).toContain('id="token"');
    expect(page).not.toContain(token);
    const state = await ky
      .get(`${url}/__playground/state`, { headers: { authorization: `Bearer ${token}` } })
      .json<{ players: Array<{ name: string }> }>();
    expect(state.players.map((player) => player.name)).toEqual(['Alex Mercer', 'Jamie Rivera', 'Riley Chen']);

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

  it('exits 2 with the usage on a bad flag', async () => {
    const cli = startCli('playground/cli.ts', ['--port', 'many']);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('Usage:');
  });
});
