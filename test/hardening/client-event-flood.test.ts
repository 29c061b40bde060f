// Issue 12, item 6: no client can spend the panel budget. A hostile client floods one client → server event at
// 40 a second (under FXServer's own 50/s limit, so FXServer delivers every one) for a minute of virtual time, for a
// user whose profile answer does not parse, and the mock panel's request log counts what that cost.
import { afterEach, describe, expect, it } from 'vitest';
import { INTERNAL_EVENTS } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { startWorld, type World } from '../e2e/support/world.js';
import { ONE_DEPARTMENT, SAFR } from '../mock-panel/support/demo-users.js';

const PER_SECOND = 40;
const FLOOD_MS = 60_000;
const FRAME_MS = 50;

/** What a hostile script sends with each event: the shapes the bridge's own client sends, so nothing is malformed. */
const FLOODS: Record<string, (i: number) => unknown[]> = {
  [INTERNAL_EVENTS.clientReady]: () => [],
  [INTERNAL_EVENTS.dutyRequest]: (i) => [i, true, SAFR.id],
  [INTERNAL_EVENTS.refreshRequest]: () => [],
  [INTERNAL_EVENTS.revalidateRequest]: () => [],
  [INTERNAL_EVENTS.tokenProof]: (i) => [`nonce-${i}`, 'f'.repeat(64)],
};

const profileGetsFor = (world: World, chat: string, from: number) =>
  world
    .requests()
    .slice(from)
    .filter((request) => request.startsWith(`GET /api/leo/user/${chat}/departments`));

/** Sends `names` in turn, PER_SECOND events a second spread over the server frames, for FLOOD_MS. */
async function flood(world: World, player: SimPlayer, names: readonly string[]): Promise<number> {
  const perFrame = (PER_SECOND * FRAME_MS) / 1000;
  let sent = 0;
  for (let at = 0; at < FLOOD_MS; at += FRAME_MS) {
    for (let i = 0; i < perFrame; i++) {
      const name = names[sent % names.length] as string;
      player.emitNet(name, ...(FLOODS[name] as (i: number) => unknown[])(sent));
      sent++;
    }
    await world.sim.advance(FRAME_MS);
  }
  await world.sim.settle();
  return sent;
}

describe('a client flooding client → server events, for a user whose profile answer does not parse', () => {
  let world: World;
  afterEach(async () => {
    await world?.close();
  });

  const cases: Array<[string, readonly string[]]> = [
    ...Object.keys(FLOODS).map((name): [string, readonly string[]] => [name, [name]]),
    ['every client → server event in turn', Object.keys(FLOODS)],
  ];

  it.each(cases)(
    '%s, 40 a second for a minute, costs at most 2 panel requests',
    async (label, names) => {
      world = await startWorld({ clock: 'virtual' });
      // Every answer is cut in half: a 200 whose body is not JSON, so it never parses as a profile.
      world.panel.controls.setMalformed({ mode: 'invalid_json', rate: 1 });
      const player = await world.join(ONE_DEPARTMENT, 'Flooder');
      const before = world.requests().length;
      const eventsBefore = world.sim.events.length;

      const sent = await flood(world, player, names);

      const gets = profileGetsFor(world, ONE_DEPARTMENT, before);
      const all = world.requests().slice(before);
      const delivered = world.sim.events
        .slice(eventsBefore)
        .filter((e) => e.side === 'server' && names.includes(e.name) && e.source === `net:${player.id}`).length;
      const debugFlood = world.sim.console.filter((line) => /refus|too many/i.test(line.text)).length;
      console.log(
        `flood of ${label}: ${sent} sent, ${delivered} delivered by FXServer, ${all.length} panel requests in the minute ` +
          `(${gets.length} profile GETs for that user); ${debugFlood} console lines about refusals`,
      );
      expect(sent).toBe((PER_SECOND * FLOOD_MS) / 1000);
      expect(delivered).toBe(sent);
      expect(player.connected).toBe(true);
      expect(all.length).toBeLessThanOrEqual(2);
      expect(debugFlood).toBeLessThanOrEqual(names.length);
      world.sim.assertNoErrors();
    },
    120_000,
  );
});
