// The simulator the micro figures run in: the in-process mock panel with its answers replayed once given
// (replayed-panel.ts), so what is measured is the bridge's work and the simulator's, not the panel's.
import { createMockPanel } from '../../mock-panel/index.js';
import type { DutyOutcome } from '../../shared/events.js';
import { createSim, type Sim, type SimPlayer } from '../../sim/index.js';
import { TOKEN } from './bench-world.js';
import type { Population } from './population.js';
import { createReplayedPanelFetch } from './replayed-panel.js';

const PANEL_URL = 'http://panel.bench';

/** The in-process panel every simulator here talks to, its answers replayed once given (see replayed-panel.ts). */
export async function startReplayedSim(users: Population, options: { kvpDir?: string } = {}) {
  let now = () => 0;
  const panel = createMockPanel({
    token: TOKEN,
    baseUrl: PANEL_URL,
    data: users.data,
    now: () => now(),
    rateLimit: { limit: 1_000_000_000 },
  });
  let asHost = <T>(work: () => T): T => work();
  // The replay stands in for the panel: its own synchronous work is the host's side of the meter.
  const replayed = createReplayedPanelFetch(
    panel,
    () => now(),
    (work) => asHost(work),
  );
  const originalFetch = globalThis.fetch;
  // The simulated server's Node takes its global fetch from the host when a resource starts.
  globalThis.fetch = replayed.fetch;
  const sim = await createSim({
    resources: [],
    convars: { BRIDGE_API_BASE: PANEL_URL, BRIDGE_LEO_API_TOKEN: TOKEN },
    clock: 'virtual',
    recordEvents: false,
    chat: false,
    ...(options.kvpDir ? { kvpDir: options.kvpDir } : {}),
  });
  now = () => sim.now();
  asHost = (work) => sim.hostWork.run('host', work);
  let closed = false;
  return {
    sim,
    replayed,
    /** What the panel and its replay hold (request log, duty history, recorded answers) goes: none of it is the bridge's. */
    forgetPanelRecords() {
      panel.store.reset();
      replayed.forget();
    },
    async close() {
      if (closed) return;
      closed = true;
      await sim.stop();
      replayed.close();
      globalThis.fetch = originalFetch;
    },
  };
}

export type ReplayedSim = Awaited<ReturnType<typeof startReplayedSim>>;

/** Profiles the bridge holds, from `bridge status` (its console interface). */
export function cachedProfiles(sim: Sim): number {
  const mark = sim.console.length;
  sim.command('bridge status');
  const line = sim.console.slice(mark).find((entry) => entry.text.startsWith('cache'));
  return Number(line?.text.match(/\d+/)?.[0] ?? 0);
}

/**
 * The bridge (already added and started as `bridge`) with the first `online` players of `users` joined, every
 * profile loaded, and the first `onDuty` department members on duty through the server export.
 */
export async function fillServer(sim: Sim, users: Population, { online, onDuty }: { online: number; onDuty: number }) {
  const server = () => sim.exports.bridge;
  const players: SimPlayer[] = [];
  for (let index = 0; index < online; index++) {
    const member = users.members[index] as Population['members'][number];
    players.push(await sim.join({ name: member.player.name, identifiers: member.player.identifiers }));
  }
  await sim.until(() => cachedProfiles(sim) >= online, 120_000, 'every profile');
  const members = players.filter((_, index) => users.members[index]?.department !== undefined).slice(0, onDuty);
  const dutyCalls = members.map((player) => server().SetPlayerDuty(player.id, true) as Promise<DutyOutcome>);
  const outcomes = await sim.resolve(Promise.all(dutyCalls), 60_000);
  if (!outcomes.every((outcome) => outcome.ok)) throw new Error('bench: a player did not go on duty');
  return { players, members };
}
