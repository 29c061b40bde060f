// A server txAdmin restarts: txAdmin's notice (`txAdmin:events:serverShuttingDown`), then after its delay the process
// is gone without onResourceStop (sim/txadmin/tx-admin.ts). The shifts must end at the panel within the delay, each
// player told in the owner's words, and the next start must send nothing that was delivered already.
import { afterEach, describe, expect, it } from 'vitest';
import { population } from '../../bench/support/population.js';
import { type SimPlayer, TXADMIN_MONITOR, TxAdmin } from '../../sim/index.js';
import { changeDuty } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

const OFFICERS = 6;
const SHUTDOWN_TEXT = 'Dienstende: der Server startet neu.';
const CRASH_LINE = 'the last run ended without stopping';

describe('txAdmin stops the server', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const officers = population(OFFICERS, { memberEvery: 1 });
  const openSessions = () => world.panel.controls.sessions().filter((session) => session.endedAt === null);
  const offPosts = () => world.requests().filter((request) => request.startsWith('POST /api/leo/duty/off'));

  async function everyoneOnDuty(): Promise<SimPlayer[]> {
    const players: SimPlayer[] = [];
    for (const member of officers.members) {
      const player = await world.join(member.chatId, member.player.name);
      expect(await changeDuty(world.sim, player, true)).toMatchObject({ ok: true, onDuty: true });
      players.push(player);
    }
    expect(openSessions()).toHaveLength(OFFICERS);
    return players;
  }

  async function start(): Promise<void> {
    world = await startWorld({
      clock: 'virtual',
      panel: { data: officers.data },
      resources: [{ dir: TXADMIN_MONITOR, name: 'monitor' }],
      config: `Config.Locale = { off_duty_server_shutdown = '${SHUTDOWN_TEXT}' }`,
    });
  }

  it('ends every shift with server_shutdown within the delay, tells each player, and the next start sends nothing', async () => {
    await start();
    const players = await everyoneOnDuty();
    const noticeAt = world.sim.now();
    const txAdmin = new TxAdmin(world.sim);

    txAdmin.shuttingDown({ delay: 5000 });
    // The events and the notification come before txAdmin's monitor drops the players, a frame later.
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual(
      players.map((player) => [player.id, 'server_shutdown', false]),
    );
    await world.sim.tick(2);
    for (const player of players) {
      expect(world.eventArgs('bridge:client:offDuty', player)).toEqual([
        [{ departmentId: expect.any(Number), reason: 'server_shutdown' }],
      ]);
      expect(player.notifications.map((notification) => notification.text)).toContain(SHUTDOWN_TEXT);
    }
    await world.sim.advance(5000);
    expect(openSessions()).toEqual([]);
    const ended = world.panel.controls.sessions().map((session) => Date.parse(session.endedAt as string) - noticeAt);
    expect(ended.every((ms) => ms <= 5000)).toBe(true);
    expect(world.panel.controls.sessions().map((session) => session.endedBy)).toEqual(
      Array.from({ length: OFFICERS }, () => 'off'),
    );
    await world.sim.kill();

    const before = offPosts().length;
    await world.sim.restart();
    await world.sim.until(
      () => world.sim.console.some((line) => line.text.includes('the panel at')),
      5000,
      'the probe',
    );
    await world.sim.advance(30_000);
    expect(offPosts().length - before).toBe(0);
    expect(world.consoleText()).not.toContain(CRASH_LINE);
  });

  it('keeps an off the panel did not take in time for the next start, which sends it once', async () => {
    await start();
    await everyoneOnDuty();
    world.panel.controls.setOutage({ mode: 'reset' });

    await new TxAdmin(world.sim).shutdown({ delay: 5000 });
    expect(openSessions()).toHaveLength(OFFICERS);
    expect(world.eventArgs('bridge:server:playerOffDuty').map(([, reason]) => reason)).toEqual(
      Array.from({ length: OFFICERS }, () => 'server_shutdown'),
    );
    world.panel.controls.clearFaults();
    const before = offPosts().filter((request) => request.endsWith(' 200')).length;

    await world.sim.restart();
    await world.sim.until(() => openSessions().length === 0, 60_000, 'the kept offs to be delivered');
    await world.sim.advance(30_000);
    expect(offPosts().filter((request) => request.endsWith(' 200')).length - before).toBe(OFFICERS);
    expect(world.panel.controls.sessions().map((session) => session.endedBy)).toEqual(
      Array.from({ length: OFFICERS }, () => 'off'),
    );
    expect(world.consoleText()).not.toContain(CRASH_LINE);
  });
});
