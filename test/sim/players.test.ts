// Connecting, joining, identifiers and dropping (fivem-runtime.md §4).
import { afterEach, describe, expect, it } from 'vitest';
import { entries, logOf, startFixtures } from '../../bench/support/sim-fixtures.js';
import { ConnectionRejected, type Sim } from '../../sim/index.js';

let sim: Sim;
afterEach(() => sim?.stop());
const identifiers = ['license2:second', 'license:0123abcd', 'chat:123456789012345678', 'ip:127.0.0.1'];

describe('connecting and joining', () => {
  it('connects with a temporary id (65536 + n) and identifiers, then joins with the next final id', async () => {
    sim = await startFixtures();
    const first = await sim.join({ name: 'First', identifiers });
    const second = await sim.join({ name: 'Second' });
    const log = logOf(sim, 'sim_core');
    expect(entries(log, 'connecting')[0]).toEqual({
      kind: 'connecting',
      src: first.tempId,
      name: 'First',
      identifiers,
      players: [],
    });
    expect(first.tempId).toBeGreaterThanOrEqual(65536);
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(entries(log, 'joining')).toEqual([
      { kind: 'joining', src: 1, oldId: String(first.tempId), name: 'First', players: ['1'] },
      { kind: 'joining', src: 2, oldId: String(second.tempId), name: 'Second', players: ['1', '2'] },
    ]);
    expect(entries(logOf(sim, 'sim_consumer'), 'joining')).toEqual([
      { kind: 'joining', src: 1, oldId: String(first.tempId), name: 'First' },
      { kind: 'joining', src: 2, oldId: String(second.tempId), name: 'Second' },
    ]);
  });

  it('rejects a player when a playerConnecting handler cancels, with the kick reason', async () => {
    sim = await startFixtures();
    await expect(sim.join({ name: 'Banned' })).rejects.toThrow(
      new ConnectionRejected('You are banned from this server.'),
    );
    expect(sim.exports.sim_core.Players()).toEqual([]);
  });

  it('holds a deferred connection until done(), and rejects on done(reason)', async () => {
    sim = await startFixtures();
    const started = sim.now();
    const slow = await sim.join({ name: 'Slow' });
    expect(sim.now() - started).toBeGreaterThanOrEqual(200);
    expect(slow.id).toBe(1);
    await expect(sim.join({ name: 'Refused' })).rejects.toThrow('Not on the list.');
  });

  it('starts the client’s resources after joining (the client reads the Lua config too)', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    expect(p.resourceState('sim_core')).toBe('started');
    expect((p.exports.sim_core.GetLog() as Record<string, unknown>[])[0]).toEqual({
      kind: 'config',
      name: 'sim_core',
      departments: ['lspd', 'bcso'],
    });
  });
});

describe('identifier natives', () => {
  it('answers from JS: names, identifiers, prefix matching returning the full identifier', async () => {
    sim = await startFixtures();
    const p = await sim.join({ name: 'Ident', identifiers });
    expect(sim.exports.sim_core.Identity2(p.id)).toEqual({
      name: 'Ident',
      count: 4,
      first: 'license2:second',
      outOfRange: null,
      all: identifiers,
      chat: 'chat:123456789012345678',
      license: 'license2:second',
      licenseExact: 'license:0123abcd',
      missing: null,
      exists: true,
    });
    expect(sim.exports.sim_core.Identity2(99)).toMatchObject({ name: null, count: 0, all: [], exists: false });
  });

  it('answers from Lua: GetPlayers gives strings, GetPlayerIdentifiers the list', async () => {
    sim = await startFixtures();
    const p = await sim.join({ name: 'Lua', identifiers });
    expect(sim.exports.sim_consumer.Identity(p.id)).toEqual({
      name: 'Lua',
      identifiers,
      license: 'license2:second',
      chat: 'chat:123456789012345678',
      missing: 'nil',
      players: ['1'],
    });
  });
});

describe('dropping', () => {
  it('fires playerDropped with the reason, the dropping resource and code 1 for DropPlayer, the player still readable', async () => {
    sim = await startFixtures();
    const p = await sim.join({ name: 'Kicked' });
    expect(sim.exports.sim_core.Kick(p.id, 'bye')).toBe(true);
    expect(p.connected).toBe(true);
    await sim.tick();
    expect(p.connected).toBe(false);
    expect(entries(logOf(sim, 'sim_core'), 'dropped')).toEqual([
      { kind: 'dropped', src: p.id, reason: 'bye', resource: 'sim_core', code: 1, name: 'Kicked' },
    ]);
    expect(entries(logOf(sim, 'sim_consumer'), 'dropped')).toEqual([
      { kind: 'dropped', src: p.id, reason: 'bye', code: 1, name: 'Kicked' },
    ]);
    expect(sim.exports.sim_core.Players()).toEqual([]);
    expect(sim.exports.sim_core.Kick(99, 'nobody')).toBe(false);
  });

  it('drops from Lua too, naming the Lua resource', async () => {
    sim = await startFixtures();
    const p = await sim.join({ name: 'LuaKicked' });
    expect(sim.exports.sim_consumer.Kick(p.id, 'from lua')).toBe(true);
    await sim.tick();
    expect(entries(logOf(sim, 'sim_core'), 'dropped')).toEqual([
      { kind: 'dropped', src: p.id, reason: 'from lua', resource: 'sim_consumer', code: 1, name: 'LuaKicked' },
    ]);
  });

  it('fires playerDropped with code 2 when the client quits, and forgets the player', async () => {
    sim = await startFixtures();
    const p = await sim.join({ name: 'Quitter' });
    p.drop('Exiting');
    expect(entries(logOf(sim, 'sim_core'), 'dropped')).toEqual([
      { kind: 'dropped', src: p.id, reason: 'Exiting', resource: '__cfx_internal:client', code: 2, name: 'Quitter' },
    ]);
    expect(sim.players).toEqual([]);
    expect(() => p.exports).toThrow(/not connected/);
  });

  it('drops a client that floods the server with net events', async () => {
    sim = await startFixtures();
    const p = await sim.join({ name: 'Flooder' });
    for (let i = 0; i < 600; i++) p.emitNet('core:sequence', i);
    await sim.tick(2);
    expect(entries(logOf(sim, 'sim_core'), 'dropped')).toEqual([
      expect.objectContaining({ reason: 'Reliable network event overflow.', code: 9 }),
    ]);
    // A burst of 200 gets through; the client's own core:clientReady at start-up took one.
    expect(entries(logOf(sim, 'sim_core'), 'sequence')).toHaveLength(199);
  });
});
