// Config.ResumeWindowMs: a game crash or a timeout does not end the shift. The player who comes back in time with the
// same chat account is on duty again in the same shift, and the panel hears nothing; one who does not come back has
// the shift ended when the window runs out; a quit ends it at once. FXServer's own drop reasons (sim/player.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeServerExports, DeptDataPayload } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { LSPD, LSPD_ROLES, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { STUB_RESOURCES } from '../server/integrations/support/stub-resources.js';
import { bridgeOf, changeDuty } from './support/bridge-exports.js';
import { MAY_CHANGE_PRINCIPALS } from './support/supervisors.js';
import { startWorld, type World } from './support/world.js';

const WINDOW_MS = 300_000;
const ALEX_ACCOUNT = `bridge.account.chat:${TWO_DEPARTMENTS}`;
const IN_LSPD = [ALEX_ACCOUNT, 'bridge.lspd', `bridge.lspd.${LSPD.sergeant}`, 'bridge.onduty'];
const GUILD = '874563219087654321';
/** Alex's roles in the panel's guild: LSPD Sergeant and BCSO Deputy. */
const ALEX_ROLES = [
  '1187342095671230001',
  '1187342095671230011',
  '1187342095671230012',
  '1187342095671230002',
  '1187342095671230021',
];
const BCSO_ONLY = ['1187342095671230002', '1187342095671230021'];
const CRASH_LINE = 'the last run ended without stopping';

describe('a game crash does not end the shift (Config.ResumeWindowMs)', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const server = () => world.sim.exports.bridge as BridgeServerExports;
  const dutyPosts = (since = 0) =>
    world
      .requests()
      .slice(since)
      .filter((request) => request.startsWith('POST'));
  const alexSessions = () => world.panel.controls.sessions(TWO_DEPARTMENTS);

  async function alexOnDuty(config = `Config.ResumeWindowMs = ${WINDOW_MS}`): Promise<SimPlayer> {
    world = await startWorld({
      clock: 'virtual',
      config: `${config}\nConfig.AcePermissions = true`,
      aces: MAY_CHANGE_PRINCIPALS,
    });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    expect(await changeDuty(world.sim, alex, true)).toMatchObject({ ok: true, departmentId: LSPD.id });
    return alex;
  }

  /** Alex's game again, once the bridge said so; resolves when their client's export says they are on duty. */
  async function alexBack(): Promise<SimPlayer> {
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await world.sim.until(() => bridgeOf(alex).IsPlayerOnDuty(), 5000, 'the client to be on duty again');
    return alex;
  }

  it('a crash and a rejoin within the window: the same shift goes on, and the panel hears no off and no on', async () => {
    const ghost = await alexOnDuty();
    const since = server().GetPlayerDuty(ghost.id).since;
    const requestsAtCrash = world.requests().length;

    ghost.crash();
    await world.sim.advance(60_000);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[ghost.id, 'dropped', true]]);
    expect(alexSessions().map((session) => session.endedAt)).toEqual([null]);

    const alex = await alexBack();
    expect(server().GetPlayerDuty(alex.id)).toMatchObject({ onDuty: true, departmentId: LSPD.id, rankId: 2, since });
    expect(world.eventArgs('bridge:server:playerOnDuty').at(-1)).toEqual([alex.id, LSPD.id, LSPD.sergeant, true]);
    const deptData = world.eventArgs('bridge:client:deptData', alex).at(-1)?.[0] as DeptDataPayload;
    expect(deptData).toMatchObject({ departmentId: LSPD.id, resumed: true });
    await world.sim.settle();
    expect(alex.stateBag()['bridge:duty']).toMatchObject({ onDuty: true, departmentId: LSPD.id, since });
    expect(world.sim.principalsOf(alex.id)).toEqual(expect.arrayContaining(IN_LSPD));

    // Past the window: the shift the player came back to is not ended by it.
    await world.sim.advance(WINDOW_MS);
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(true);
    expect(dutyPosts(requestsAtCrash)).toEqual([]);
    expect(alexSessions().map((session) => session.endedAt)).toEqual([null]);
  });

  it("gives the department's job back in the shift that goes on, once the framework loads the character", async () => {
    type QbCore = { loadPlayer(src: number, citizenId: string): void; calls(): Array<Record<string, unknown>> };
    const config = `Config.ResumeWindowMs = ${WINDOW_MS}\nConfig.Integrations.JobFramework = 'qbcore'`;
    world = await startWorld({ clock: 'virtual', config, resources: [STUB_RESOURCES.qbcore] });
    const qb = () => world.sim.exports['qb-core'] as unknown as QbCore;
    const gaveLspd = (src: number) => () =>
      qb()
        .calls()
        .some((call) => call.src === src && call.job === 'lspd');
    const ghost = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    qb().loadPlayer(ghost.id, 'QBC00001');
    expect(await changeDuty(world.sim, ghost, true)).toMatchObject({ ok: true, departmentId: LSPD.id });
    await world.sim.until(gaveLspd(ghost.id), 5000, 'the job on duty');
    ghost.crash();
    await world.sim.settle();

    const alex = await alexBack();
    qb().loadPlayer(alex.id, 'QBC00001');
    await world.sim.until(gaveLspd(alex.id), 5000, "the department's job again");
    await world.sim.settle();
    const jobs = qb()
      .calls()
      .filter((call) => call.src === alex.id && call.fn === 'SetJob');
    expect(jobs.at(-1)).toMatchObject({ job: 'lspd' });
  });

  it('a ghost that times out after its player is back: the session already in game takes the shift', async () => {
    const ghost = await alexOnDuty();
    const requestsBefore = world.requests().length;
    // The game froze; the player restarted it and joined again before the server gave up on the old connection.
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(false);
    ghost.timeOut();
    await world.sim.until(() => bridgeOf(alex).IsPlayerOnDuty(), 5000, 'the session in game to take the shift');
    expect(world.eventArgs('bridge:server:playerOnDuty').at(-1)).toEqual([alex.id, LSPD.id, LSPD.sergeant, true]);
    expect(dutyPosts(requestsBefore)).toEqual([]);
    expect(alexSessions().map((session) => session.endedAt)).toEqual([null]);
  });

  it('a timeout without a rejoin: the off goes to the panel when the window runs out, not before', async () => {
    const alex = await alexOnDuty();
    alex.timeOut();
    await world.sim.advance(WINDOW_MS - 5000);
    expect(dutyPosts().filter((request) => request.includes('/off'))).toEqual([]);
    await world.sim.advance(10_000);
    expect(dutyPosts().filter((request) => request.includes('/off'))).toEqual(['POST /api/leo/duty/off 200']);
    expect(alexSessions().map((session) => session.endedBy)).toEqual(['off']);
    expect(world.consoleText()).toContain('did not come back within Config.ResumeWindowMs');
    expect(server().GetOnDutyPlayers()).toEqual([]);
  });

  it('a drop the player chose ends the shift at once', async () => {
    const alex = await alexOnDuty();
    alex.quit();
    await world.sim.advance(2000);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[alex.id, 'dropped', false]]);
    expect(alexSessions().map((session) => session.endedBy)).toEqual(['off']);
  });

  it('comes back with the rank the panel gives now, which the panel then gets', async () => {
    const ghost = await alexOnDuty();
    ghost.crash();
    world.panel.controls.setRoles(TWO_DEPARTMENTS, [...ALEX_ROLES, LSPD_ROLES.lieutenant], GUILD);
    const alex = await alexBack();
    expect(server().GetPlayerDuty(alex.id)).toMatchObject({ onDuty: true, departmentId: LSPD.id, rankId: 3 });
    await world.sim.until(() => alexSessions().length === 2, 10_000, 'the new rank at the panel');
    expect(alexSessions().map((session) => [session.rankId, session.endedBy])).toEqual([
      [LSPD.sergeant, 'switch'],
      [LSPD.lieutenant, null],
    ]);
  });

  it('does not come back to a department the panel took away meanwhile: the shift ends there', async () => {
    const ghost = await alexOnDuty();
    ghost.crash();
    world.panel.controls.setRoles(TWO_DEPARTMENTS, BCSO_ONLY, GUILD);
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await world.sim.until(() => alexSessions()[0]?.endedBy === 'off', 10_000, 'the shift to end at the panel');
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(false);
    expect(server().GetOnDutyPlayers()).toEqual([]);
  });

  it('a server crash during the window: the next start ends the shift', async () => {
    const alex = await alexOnDuty();
    alex.crash();
    await world.sim.advance(10_000);
    await world.sim.kill();
    await world.sim.restart();
    await world.sim.until(() => alexSessions()[0]?.endedBy === 'off', 30_000, 'the held shift to end');
    expect(world.consoleText()).toContain(CRASH_LINE);
  });

  it('the resource stopping during the window ends the shift, and leaves nothing for the next start', async () => {
    const alex = await alexOnDuty();
    alex.crash();
    await world.sim.advance(10_000);
    await world.sim.restartResource('bridge');
    await world.sim.until(() => alexSessions()[0]?.endedBy === 'off', 30_000, 'the held shift to end');
    await world.sim.advance(10_000);
    expect(alexSessions().map((session) => session.endedBy)).toEqual(['off']);
    expect(world.consoleText()).not.toContain(CRASH_LINE);
  });

  it('without the window (the default), a crash ends the shift at once: duty is per session', async () => {
    const alex = await alexOnDuty('');
    alex.crash();
    await world.sim.advance(2000);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[alex.id, 'dropped', false]]);
    expect(alexSessions().map((session) => session.endedBy)).toEqual(['off']);
  });
});
