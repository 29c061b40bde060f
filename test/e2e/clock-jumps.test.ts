// The game server's wall clock jumps an hour (an admin, NTP) in the middle of a join storm. The built bridge runs in
// the simulator against the mock panel over loopback HTTP; the panel keeps its own clock, only the server's jumps.
import { afterEach, describe, expect, it } from 'vitest';
import { population } from '../../bench/support/population.js';
import type { ProfilePayload } from '../../shared/events.js';
import { startWorld, type World } from './support/world.js';

const PLAYERS = 300;
const JOINS_PER_SECOND = 10;
/**
 * The clock jumps when the panel's window is nearly spent: the bridge is pacing the storm's last requests of the
 * window, or waiting for its reset.
 */
const JUMP_WHEN_PANEL_REMAINING = 10;
/** The panel's fixed window: a wait longer than this is not the rate limit's doing. */
const RATE_LIMIT_WINDOW_MS = 60_000;
/** Long enough for 300 profiles at 200 a minute, short of the hour a stall would take. */
const GIVE_UP_AFTER_MS = 5 * 60_000;
const STEP_MS = 250;

interface StormFigures {
  loaded: number;
  /** The longest time in which some joined player waited for a profile and none arrived (250 ms steps). */
  longestStallMs: number;
  /** The longest time between two profiles arriving, from the first join to the last profile. */
  longestGapMs: number;
  tooManyRequests: number;
  lastProfileAfterS: number;
}

async function joinStormWithJump(world: World, jumpMs: number): Promise<StormFigures> {
  const { sim } = world;
  const users = population(PLAYERS);
  const start = sim.now();
  const loadedAt: number[] = [];
  let joined = 0;
  let jumped = false;
  let lastProgress = start;
  let longestStallMs = 0;
  while (loadedAt.length < PLAYERS && sim.now() - start < GIVE_UP_AFTER_MS) {
    const due = Math.min(PLAYERS, Math.floor(((sim.now() - start) / 1000) * JOINS_PER_SECOND) + 1);
    while (joined < due) {
      const member = users.members[joined++];
      if (!member) break;
      const player = await sim.join({ name: member.player.name, identifiers: member.player.identifiers });
      let loaded = false;
      player.on('bridge:client:profile', (payload) => {
        if (loaded || !(payload as ProfilePayload).ok) return;
        loaded = true;
        loadedAt.push(sim.now());
      });
    }
    const window = world.panel.store.rateLimiter.openWindows()[0];
    if (!jumped && window && window.remaining <= JUMP_WHEN_PANEL_REMAINING) {
      sim.jumpWallClock(jumpMs);
      jumped = true;
    }
    const before = loadedAt.length;
    await sim.advance(STEP_MS);
    if (loadedAt.length > before || joined === loadedAt.length) lastProgress = sim.now();
    longestStallMs = Math.max(longestStallMs, sim.now() - lastProgress);
  }
  const statuses = world.panel.controls.requests().map((request) => request.status);
  const arrivals = [start, ...loadedAt];
  return {
    loaded: loadedAt.length,
    longestStallMs,
    longestGapMs: Math.max(...arrivals.slice(1).map((at, index) => at - (arrivals[index] as number))),
    tooManyRequests: statuses.filter((status) => status === 429).length,
    lastProfileAfterS: ((loadedAt.at(-1) ?? sim.now()) - start) / 1000,
  };
}

describe('the server clock jumps an hour during a join storm of 300 players', () => {
  let world: World;
  afterEach(async () => {
    await world?.close();
  });

  it.each([
    ['back', -3_600_000],
    ['forward', 3_600_000],
  ])('jumping %s: every profile loads, no stall longer than one rate-limit window, no 429', async (_, jumpMs) => {
    world = await startWorld({ clock: 'virtual', panel: { data: population(PLAYERS).data } });
    const figures = await joinStormWithJump(world, jumpMs);
    console.info(`clock jump ${jumpMs / 60_000} min: ${JSON.stringify(figures)}`);
    expect(figures.tooManyRequests).toBe(0);
    // Game time on the simulator's virtual clock (sim.now()), not the machine's: what the bridge did, not how fast.
    expect(figures.longestStallMs).toBeLessThanOrEqual(RATE_LIMIT_WINDOW_MS);
    expect(figures.loaded).toBe(PLAYERS);
    world.sim.assertNoErrors();
  });
});
