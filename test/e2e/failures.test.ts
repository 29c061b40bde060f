import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DutyOutcome } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { LSPD, ONE_DEPARTMENT, TWO_DEPARTMENTS, UNKNOWN_USER } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, TOKEN, type World } from './support/world.js';

type Options = { ok: boolean; error?: string; message?: string; departments: Array<{ setActive: () => void }> };

const texts = (player: SimPlayer) => player.notifications.map((n) => n.text);

/** A loopback port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('failure paths, end to end', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  async function tryOnDuty(player: SimPlayer): Promise<DutyOutcome> {
    const outcomes: DutyOutcome[] = [];
    const options = bridgeOf(player).GetDutyOptions() as Options;
    options.departments[0]?.setActive();
    bridgeOf(player).UpdatePlayerDuty(true, (outcome) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length > 0, 15_000, 'the duty outcome');
    await world.sim.settle();
    return outcomes[0] as DutyOutcome;
  }

  it.each([
    ['BRIDGE_API_BASE', { BRIDGE_LEO_API_TOKEN: TOKEN }],
    ['BRIDGE_LEO_API_TOKEN', { BRIDGE_API_BASE: 'http://127.0.0.1:9' }],
  ])('without %s: one clear error with the set line, an inert bridge, no crash', async (missing, convars) => {
    world = await startWorld({ convars });
    const player = await world.join(TWO_DEPARTMENTS);
    const errors = world.sim.console.filter((line) => line.text.includes(`${missing} is not set`));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.text).toContain(`Add this line to server.cfg: set ${missing} "`);
    expect(bridgeOf(player).GetDutyOptions()).toMatchObject({ ok: false, error: 'not_configured' });
    const outcomes: unknown[] = [];
    bridgeOf(player).UpdatePlayerDuty(false, (outcome: unknown) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length > 0, 5000, 'the outcome');
    expect(outcomes).toEqual([expect.objectContaining({ ok: false, error: 'not_configured' })]);
    expect(world.panel.controls.requests()).toEqual([]);
    expect(texts(player)).toContain('The duty system is not configured on this server. Tell an administrator.');
  });

  it('with a wrong token: the 401 is reported once, clearly, however many players join', async () => {
    world = await startWorld({ panel: { token: 'the-panel-has-another-token-42' } });
    const players = [
      await world.join(TWO_DEPARTMENTS),
      await world.join(ONE_DEPARTMENT),
      await world.join(UNKNOWN_USER),
    ];
    const reports = world.sim.console.filter((line) => line.text.includes('refused the API token (401)'));
    expect(reports).toHaveLength(1);
    expect(reports[0]?.text).toContain('BRIDGE_LEO_API_TOKEN must equal LEO_API_TOKEN');
    for (const player of players)
      expect(bridgeOf(player).GetDutyOptions()).toMatchObject({ ok: false, error: 'unauthorized' });
    expect(world.consoleText()).not.toContain(TOKEN);
  });

  it('an unknown user is not_registered and is told to sync', async () => {
    world = await startWorld();
    const player = await world.join(UNKNOWN_USER);
    expect(bridgeOf(player).GetDutyOptions()).toMatchObject({ ok: false, error: 'not_registered' });
    expect(world.requests()).toEqual([`GET /api/leo/user/${UNKNOWN_USER}/departments 404`]);
    expect(texts(player).join('\n')).toMatch(/\/syncme.*Refresh roles/);
  });

  it.each([
    ['no chat identifier', ['license:0123456789abcdef', 'discord:123456789012345678'], 'no_identifier'],
    ['a malformed chat identifier', ['license:0123456789abcdef', 'chat:12345'], 'malformed_identifier'],
    ['a chat identifier with unicode digits', ['chat:２８４６１９３７５０１６４８２８１７'], 'malformed_identifier'],
  ])('a player with %s: no request, ok false with the reason, told how to link', async (_what, identifiers, error) => {
    world = await startWorld();
    const player = await world.join({ identifiers });
    expect(bridgeOf(player).GetDutyOptions()).toMatchObject({ ok: false, error });
    expect(world.requests()).toEqual([]);
    expect(texts(player).join('\n')).toMatch(/[Ll]ink your chat account/);
  });

  it('a 400 from the panel (roles changed since the profile was cached) refuses going on duty', async () => {
    world = await startWorld();
    const player = await world.join(ONE_DEPARTMENT);
    world.panel.controls.setRoles(ONE_DEPARTMENT, []);
    expect(await tryOnDuty(player)).toMatchObject({ ok: false, error: 'not_member' });
    expect(world.requests().filter((r) => r.startsWith('POST'))).toEqual(['POST /api/leo/duty/on 400']);
    expect(bridgeOf(player).IsPlayerOnDuty()).toBe(false);
    expect(bridgeOf(player).GetDutyOptions()).toMatchObject({ ok: true, departments: [] });
  });

  it('a 500 from the panel: the profile is panel_unavailable and the player is told to retry', async () => {
    world = await startWorld();
    world.panel.controls.injectErrors({ error: 'internal_error' });
    const player = await world.join(TWO_DEPARTMENTS);
    expect(bridgeOf(player).GetDutyOptions()).toMatchObject({ ok: false, error: 'panel_unavailable' });
    expect(texts(player).join('\n')).toContain('run /dutyrefresh in a moment');
    expect(world.consoleText()).toContain('the panel could not be asked for profiles');
  });

  it('a panel slower than RequestTimeoutMs: going on duty is refused, nothing is left on duty', async () => {
    world = await startWorld({ config: 'Config.RequestTimeoutMs = 500' });
    const player = await world.join(ONE_DEPARTMENT);
    world.panel.controls.setLatency(2_000);
    expect(await tryOnDuty(player)).toMatchObject({ ok: false, error: 'panel_unavailable' });
    expect(bridgeOf(player).IsPlayerOnDuty()).toBe(false);
    expect(texts(player)).toContain('The panel did not answer; try again in a moment.');
    world.panel.controls.clearFaults();
    await world.sim.until(
      () => world.panel.controls.sessions(ONE_DEPARTMENT).every((session) => session.endedAt !== null),
      15_000,
      'an on that may have reached the panel to be undone',
    );
  });

  it('a panel that is down: the start-up probe says so, players get panel_unavailable, nothing throws', async () => {
    const port = await closedPort();
    world = await startWorld({ convars: { BRIDGE_API_BASE: `http://127.0.0.1:${port}`, BRIDGE_LEO_API_TOKEN: TOKEN } });
    await world.sim.until(() => world.consoleText().includes('did not answer properly'), 10_000, 'the probe');
    const player = await world.join(TWO_DEPARTMENTS);
    expect(bridgeOf(player).GetDutyOptions()).toMatchObject({ ok: false, error: 'panel_unavailable' });
  });

  it('an outage that resets connections: the profile is panel_unavailable, then loads after /dutyrefresh', async () => {
    world = await startWorld({ config: 'Config.RefreshCooldownMs = 0' });
    world.panel.controls.setOutage({ mode: 'reset' });
    const player = await world.join(TWO_DEPARTMENTS);
    expect(bridgeOf(player).GetDutyOptions()).toMatchObject({ ok: false, error: 'panel_unavailable' });
    world.panel.controls.clearFaults();
    player.command('dutyrefresh');
    await world.sim.until(() => (bridgeOf(player).GetDutyOptions() as Options).ok, 10_000, 'the refreshed profile');
    expect(bridgeOf(player).GetDutyOptions()).toMatchObject({ ok: true, departments: [{ id: LSPD.id }, {}] });
  });
});

describe('the wording of profile failures', () => {
  it("follows the owner's Config.Locale in the profile event other resources receive", async () => {
    const world = await startWorld({
      config: "Config.Locale.not_registered = 'Unbekannt im Panel: bitte /syncme ausführen, dann /dutyrefresh.'",
    });
    try {
      const player = await world.join(UNKNOWN_USER);
      expect(world.eventArgs('bridge:client:profile', player)).toEqual([
        [
          {
            ok: false,
            error: 'not_registered',
            message: 'Unbekannt im Panel: bitte /syncme ausführen, dann /dutyrefresh.',
          },
        ],
      ]);
      world.sim.assertNoErrors();
    } finally {
      await world.close();
    }
  });
});
