// Hostile clients (issue 7): arbitrary client → server events against every net event the bridge registers, and a
// flood from one player while an honest player toggles duty. Seeded and bounded; runs on the virtual clock.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { DutyOutcome } from '../../shared/events.js';
import { INTERNAL_EVENTS } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { bridgeOf } from '../e2e/support/bridge-exports.js';
import { startWorld, type World } from '../e2e/support/world.js';
import {
  NO_DEPARTMENTS,
  ONE_DEPARTMENT,
  OTHER_GUILD_ONLY,
  TWO_DEPARTMENTS,
  UNKNOWN_USER,
} from '../mock-panel/support/demo-users.js';

const SEED = 0x7a11;
// The net events server/edge/fivem/server-adapter.ts registers with onNet (the client → server INTERNAL_EVENTS).
const NET_EVENTS = [
  INTERNAL_EVENTS.clientReady,
  INTERNAL_EVENTS.dutyRequest,
  INTERNAL_EVENTS.refreshRequest,
  INTERNAL_EVENTS.tokenProof,
];
const HOSTILE_CHATS = [NO_DEPARTMENTS, UNKNOWN_USER, OTHER_GUILD_ONLY, ONE_DEPARTMENT];
/** ONE_DEPARTMENT holds SAFR (3) only; every other department id is one the hostile players do not have. */
const HOSTILE_OWN_DEPARTMENT = 3;

/** A client → server net event from that player, as the server received it. */
const fromPlayer = (e: { side: string; source: string }, id: number) =>
  e.side === 'server' && (e.source === `net:${id}` || e.source === `internal-net:${id}`);

type Options = { departments: Array<{ id: number; setActive: () => void }> };

/** Duty sessions the panel recorded for that user: the duty calls (their path does not name the user) it accepted. */
const dutySessionsFor = (world: World, chat: string) => world.panel.controls.sessions(chat);
const profileGetsFor = (world: World, chat: string) =>
  world.requests().filter((request) => request.startsWith(`GET /api/leo/user/${chat}/departments`));

/** Arbitrary arguments: wrong types, missing and extra fields, huge payloads, other ids, rank fields. */
function argsArbitrary(otherIds: number[]): fc.Arbitrary<unknown[]> {
  const id = fc.oneof(
    fc.integer({ min: -5, max: 10 }),
    fc.constantFrom(...otherIds, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER),
    fc.double(),
  );
  // Never the hostile player's own department with on = true: everything here is illegitimate or harmless.
  const department = fc.oneof(
    fc.constant(null),
    id.filter((value) => value !== HOSTILE_OWN_DEPARTMENT),
    fc.string({ maxLength: 8 }),
  );
  const rankFields = fc.record({
    rankId: fc.integer({ min: 0, max: 99 }),
    rank: fc.record({ id: fc.integer(), name: fc.string({ maxLength: 10 }) }),
    departmentId: fc.integer({ min: 1, max: 5 }),
    source: fc.constantFrom(...otherIds),
  });
  const wellShaped = fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.boolean(), department);
  return fc.oneof(
    { arbitrary: wellShaped, weight: 4 },
    {
      arbitrary: fc
        .tuple(wellShaped, fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }))
        .map(([a, b]) => [...a, ...b]),
      weight: 2,
    },
    { arbitrary: fc.array(fc.anything({ maxDepth: 3, maxKeys: 4 }), { maxLength: 4 }), weight: 4 },
    { arbitrary: fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.boolean(), department, rankFields), weight: 2 },
    { arbitrary: fc.tuple(rankFields), weight: 1 },
    {
      arbitrary: fc.constantFrom(...([[], [1], [1, true], [null, null, null], [true, 1, 1]] as unknown[][])),
      weight: 1,
    },
    // Huge, but bounded (8 KiB) so FXServer's 128 KiB/s size limit does not drop the paced events.
    { arbitrary: fc.tuple(fc.nat(1000), fc.boolean(), fc.string({ minLength: 4096, maxLength: 8192 })), weight: 1 },
  );
}

describe('hostile clients', () => {
  let world: World;
  afterEach(async () => {
    await world?.close();
  });

  it('10,000 arbitrary events from joined players: nothing accepted illegitimately, no panel call, no error', async () => {
    world = await startWorld({ clock: 'virtual' });
    const { sim } = world;
    const honest = await world.join(TWO_DEPARTMENTS, 'Honest');
    const hostiles: SimPlayer[] = [];
    for (const chat of HOSTILE_CHATS) hostiles.push(await world.join(chat, `Hostile ${chat.slice(0, 4)}`));
    const ids = [honest.id, ...hostiles.map((p) => p.id), 0, -1, 65535];
    const requestsBefore = world.requests().length;

    // Replays: the honest player's own duty requests, captured and sent again by the hostile players.
    const outcomes: DutyOutcome[] = [];
    (bridgeOf(honest).GetDutyOptions() as Options).departments[0]?.setActive();
    bridgeOf(honest).UpdatePlayerDuty(true, (outcome) => outcomes.push(outcome));
    await sim.until(() => outcomes.length === 1, 15_000, 'the honest duty');
    const replays = sim.events
      .filter((e) => e.name === INTERNAL_EVENTS.dutyRequest && fromPlayer(e, honest.id))
      .map((e) => e.args as unknown[]);
    expect(replays.length).toBeGreaterThan(0);

    const eventArb = fc.record({
      player: fc.nat(hostiles.length - 1),
      name: fc.constantFrom(...NET_EVENTS),
      args: fc.oneof(
        { arbitrary: argsArbitrary(ids), weight: 19 },
        { arbitrary: fc.constantFrom(...replays), weight: 1 },
      ),
    });
    const BATCHES = 64;
    const PER_PLAYER_PER_SECOND = 40; // under FXServer's 50/s, so FXServer delivers them and the bridge has to cope
    const batches = fc.sample(
      fc.array(eventArb, {
        minLength: hostiles.length * PER_PLAYER_PER_SECOND,
        maxLength: hostiles.length * PER_PLAYER_PER_SECOND,
      }),
      { seed: SEED, numRuns: BATCHES },
    );
    const hostileIds = new Set(hostiles.map((p) => p.id));
    const deliveredFromHostiles = () =>
      sim.events.filter((e) => NET_EVENTS.includes(e.name as never) && [...hostileIds].some((id) => fromPlayer(e, id)))
        .length;
    const deliveredBefore = deliveredFromHostiles();
    let sent = 0;
    const started = performance.now();
    let batchNo = 0;
    for (const batch of batches) {
      for (const event of batch) {
        // Spread evenly across the hostile players so none exceeds the paced rate.
        (hostiles[sent % hostiles.length] as SimPlayer).emitNet(event.name, ...event.args);
        sent++;
      }
      // Meanwhile the honest player toggles duty every 8 s, in the same frames as the hostile events.
      if (++batchNo % 8 === 0) {
        const expected = outcomes.length + 1;
        bridgeOf(honest).UpdatePlayerDuty(!bridgeOf(honest).IsPlayerOnDuty(), (outcome) => outcomes.push(outcome));
        await sim.until(() => outcomes.length === expected, 15_000, 'the honest toggle');
      }
      await sim.advance(1000);
    }
    await sim.settle();
    await sim.advance(20_000);
    await sim.settle();
    const elapsed = performance.now() - started;

    const delivered = deliveredFromHostiles() - deliveredBefore;
    const onDuty = world.eventArgs('bridge:server:playerOnDuty').filter(([src]) => hostileIds.has(src as number));
    const onDutyBags = hostiles.filter((p) => (p.stateBag()['bridge:duty'] as { onDuty?: boolean })?.onDuty);
    const dutyCalls = HOSTILE_CHATS.flatMap((chat) => dutySessionsFor(world, chat));
    // A refresh (its arguments are ignored) is a legitimate request: the cooldown allows one per 30 s per player,
    // and a refusal may refetch the profile once. Anything above that is a panel call the hostile events caused.
    const allowedGets = Math.ceil((BATCHES + 20) / 30) + 1;
    const excessGets = HOSTILE_CHATS.map((chat) => Math.max(0, profileGetsFor(world, chat).length - 1 - allowedGets));
    const dutyCallsInAll = world
      .requests()
      .slice(requestsBefore)
      .filter((r) => !r.startsWith('GET'));
    const answers = new Map<string, number>();
    for (const p of hostiles)
      for (const [, outcome] of world.eventArgs(INTERNAL_EVENTS.dutyResult, p) as Array<[number, DutyOutcome]>) {
        const key = outcome.ok ? 'ok (off while off)' : outcome.error;
        answers.set(key, (answers.get(key) ?? 0) + 1);
      }
    const honestOk = outcomes.filter((o) => o.ok).length;
    const falseTokenAlarms = sim.console.filter((line) => line.text.includes('is replicated to clients')).length;
    console.log(
      [
        `hostile clients (seed ${SEED}): ${sent} events generated, ${delivered} delivered to the bridge by FXServer`,
        `  accepted illegitimately: ${onDuty.length} playerOnDuty, ${onDutyBags.length} on-duty state bags`,
        `  panel duty sessions of hostile players: ${dutyCalls.length}, duty calls in all ${dutyCallsInAll.length} (the honest toggles); profile GETs beyond the refresh cooldown: ${excessGets.reduce((a, b) => a + b, 0)}`,
        `  bridge answers to hostile duty requests: ${JSON.stringify(Object.fromEntries(answers))}`,
        `  honest player: ${honestOk}/${outcomes.length} duty toggles ok during the run; false token alarms: ${falseTokenAlarms}`,
        `  unhandled errors: ${sim.errors.length}; ${elapsed.toFixed(0)} ms of test time`,
      ].join('\n'),
    );
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(delivered).toBe(sent);
    expect(onDuty).toEqual([]);
    expect(onDutyBags).toEqual([]);
    expect(dutyCalls).toEqual([]);
    expect(excessGets).toEqual(HOSTILE_CHATS.map(() => 0));
    // The honest player's duty changes are the only duty calls the panel saw, and none of them was refused.
    expect(dutyCallsInAll.length).toBe(outcomes.filter((o) => o.ok && o.changed).length);
    expect(outcomes.length).toBe(1 + Math.floor(BATCHES / 8));
    expect(honestOk).toBe(outcomes.length);
    expect(falseTokenAlarms).toBe(0);
    sim.assertNoErrors();
  }, 60_000);

  it('a flood of 1,000 events in one second from one player does not starve an honest player', async () => {
    world = await startWorld({ clock: 'virtual' });
    const { sim } = world;
    const honest = await world.join(TWO_DEPARTMENTS, 'Honest');
    const flooder = await world.join(ONE_DEPARTMENT, 'Flooder');
    const flooderId = flooder.id;
    const requestsBefore = world.requests().length;
    (bridgeOf(honest).GetDutyOptions() as Options).departments[0]?.setActive();

    const outcomes: DutyOutcome[] = [];
    const toggle = (on: boolean) => bridgeOf(honest).UpdatePlayerDuty(on, (outcome) => outcomes.push(outcome));
    // 1,000 events within one second, 50 per server frame, duty requests for a department the flooder does not hold.
    let flooded = 0;
    toggle(true);
    for (let frame = 0; frame < 20; frame++) {
      for (let i = 0; i < 50; i++) {
        const name = NET_EVENTS[flooded % NET_EVENTS.length] as string;
        if (sim.players.some((p) => p.id === flooderId)) flooder.emitNet(name, flooded, true, 1);
        flooded++;
      }
      await sim.advance(50);
    }
    await sim.until(() => outcomes.length === 1, 15_000, 'the honest on-duty outcome');
    await sim.advance(2_500); // the honest player's duty gate (5 burst, 0.5/s) is theirs alone
    toggle(false);
    await sim.until(() => outcomes.length === 2, 15_000, 'the honest off-duty outcome');
    await sim.settle();

    const delivered = sim.events.filter((e) => NET_EVENTS.includes(e.name as never) && fromPlayer(e, flooderId)).length;
    const dropped = !sim.players.some((p) => p.id === flooderId);
    const flooderDutyCalls = dutySessionsFor(world, ONE_DEPARTMENT);
    const flooderGets = profileGetsFor(world, ONE_DEPARTMENT).length - 1;
    const flooderOnDuty = world.eventArgs('bridge:server:playerOnDuty').filter(([src]) => src === flooderId);
    console.log(
      [
        `flood: ${flooded} events in 1 s from one player; FXServer delivered ${delivered} and ${dropped ? 'dropped the player (Reliable network event overflow)' : 'kept the player'}`,
        `  flooder: ${flooderOnDuty.length} playerOnDuty, ${flooderDutyCalls.length} panel duty sessions, ${flooderGets} extra profile GETs`,
        `  honest player: ${outcomes.map((o) => (o.ok ? `ok onDuty=${o.onDuty}` : o.error)).join(', ')}; ${world.requests().length - requestsBefore} panel calls in all`,
        `  unhandled errors: ${sim.errors.length}`,
      ].join('\n'),
    );
    expect(outcomes).toEqual([
      expect.objectContaining({ ok: true, onDuty: true }),
      expect.objectContaining({ ok: true, onDuty: false }),
    ]);
    expect(flooderOnDuty).toEqual([]);
    expect(flooderDutyCalls).toEqual([]);
    expect(flooderGets).toBeLessThanOrEqual(2);
    expect(world.requests().filter((r) => !r.startsWith('GET'))).toHaveLength(2);
    sim.assertNoErrors();
  }, 60_000);
});
