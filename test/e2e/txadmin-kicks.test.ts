// Kicks and bans through txAdmin end the player's duty with that reason, in whichever order the event and the drop
// come; kicking everyone is the shutdown; and nobody but txAdmin's monitor can fire those events.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { population } from '../../bench/support/population.js';
import { type SimPlayer, TXADMIN_MONITOR, TxAdmin } from '../../sim/index.js';
import { changeDuty } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const officers = population(3, { memberEvery: 1 });

describe('kicks and bans through txAdmin', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const offPosts = () => world.requests().filter((request) => request.startsWith('POST /api/leo/duty/off'));
  const openSessions = () => world.panel.controls.sessions().filter((session) => session.endedAt === null);

  /** Every officer on duty, each with a license of their own but the last, who plays on the first one's game. */
  async function onDuty(monitor = TXADMIN_MONITOR): Promise<SimPlayer[]> {
    world = await startWorld({
      clock: 'virtual',
      panel: { data: officers.data },
      resources: [{ dir: monitor, name: 'monitor' }, join(FIXTURES, 'txadmin_impostor')],
    });
    const players: SimPlayer[] = [];
    const firstLicense = officers.members[0]?.player.identifiers[0] as string;
    for (const [index, member] of officers.members.entries()) {
      const identifiers = index === officers.members.length - 1 ? [firstLicense, `chat:${member.chatId}`] : undefined;
      const player = await world.join(
        { identifiers: identifiers ?? [...member.player.identifiers] },
        member.player.name,
      );
      expect(await changeDuty(world.sim, player, true)).toMatchObject({ ok: true, onDuty: true });
      players.push(player);
    }
    return players;
  }

  it('a kicked player goes off duty as kicked, told before txAdmin drops them, and the panel hears one off', async () => {
    const [kicked, other] = (await onDuty()) as [SimPlayer, SimPlayer];
    new TxAdmin(world.sim).kick(kicked, 'afk');
    await world.sim.settle();
    expect(world.eventArgs('bridge:client:offDuty', kicked)).toEqual([
      [{ departmentId: expect.any(Number), reason: 'kicked' }],
    ]);
    await world.sim.advance(2000);
    expect(kicked.connected).toBe(false);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[kicked.id, 'kicked', false]]);
    expect(offPosts()).toEqual(['POST /api/leo/duty/off 200']);
    expect(other.connected).toBe(true);
  });

  it('a ban ends the duty of every player with a banned identifier as banned', async () => {
    const [banned, other, sameGame] = (await onDuty()) as [SimPlayer, SimPlayer, SimPlayer];
    new TxAdmin(world.sim).ban(banned, 'aimbot');
    await world.sim.advance(2000);
    expect([banned.connected, other.connected, sameGame.connected]).toEqual([false, true, false]);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([
      [banned.id, 'banned', false],
      [sameGame.id, 'banned', false],
    ]);
    expect(offPosts()).toHaveLength(2);
  });

  it('kicking everyone (target -1) is the shutdown: every duty ends as server_shutdown, not as a kick', async () => {
    const players = await onDuty();
    new TxAdmin(world.sim).kick('everyone', 'restarting soon');
    await world.sim.advance(2000);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual(
      players.map((player) => [player.id, 'server_shutdown', false]),
    );
    expect(openSessions()).toEqual([]);
  });

  it('a drop with txAdmin’s kick text that comes before the event ends the duty as kicked, once', async () => {
    const [kicked] = (await onDuty(join(FIXTURES, 'txadmin_drop_first'))) as [SimPlayer];
    world.sim.command(`kickDropFirst ${kicked.id} afk`);
    await world.sim.advance(2000);
    expect(kicked.connected).toBe(false);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[kicked.id, 'kicked', false]]);
    expect(offPosts()).toEqual(['POST /api/leo/duty/off 200']);
  });

  it('nobody but txAdmin’s monitor is heard: not a client’s net event, not another resource', async () => {
    const [victim, cheater] = (await onDuty()) as [SimPlayer, SimPlayer];
    cheater.emitNet('txAdmin:events:playerKicked', { target: victim.id, author: 'x', reason: 'x', dropMessage: 'x' });
    cheater.emitNet('txAdmin:events:serverShuttingDown', { delay: 5000, author: 'x', message: 'x' });
    await world.sim.settle();
    world.sim.command(`impostorKick ${victim.id}`);
    world.sim.command('impostorShutdown');
    await world.sim.advance(2000);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([]);
    expect(openSessions()).toHaveLength(officers.members.length);
    expect(world.consoleText()).toContain('was not safe for net');
  });
});
