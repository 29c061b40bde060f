// A crashed server's shifts ended by a peer (issue 30): two simulated servers of one community, one mock panel, one
// real Redis, the default liveness (BRIDGE_REDIS_LIVENESS_MS unset: 30 s). A player is on duty on server A; A is
// killed (-9: no stop, no drop); the figure is the time from the kill to the panel's `off` of that shift, sent by
// server B. Then A starts again: it must send nothing for that shift. Real time throughout: liveness runs on Redis's
// clock (TIME), which no virtual clock moves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockPanel, startMockPanelServer } from '../../mock-panel/index.js';
import type { DutyOutcome } from '../../shared/events.js';
import { startRedisServer } from '../../sim/community/redis-server.js';
import { createSim, type Sim } from '../../sim/index.js';
import { TOKEN } from '../support/bench-world.js';

export interface PeerTakeoverOptions {
  /** The bridge's resource folder (with dist/redis.cjs). */
  resource: string;
  /** Kills measured one after the other. */
  runs: number;
  /** BRIDGE_REDIS_LIVENESS_MS; undefined: the default. */
  livenessMs?: number;
}

export interface PeerTakeoverResult {
  livenessMs: number | undefined;
  /** Seconds from each `kill -9` to the panel ending that shift (undefined: it did not within the cap). */
  killToOffS: Array<number | undefined>;
  /** Duty calls the panel took from the crashed server's restart for the shift a peer had ended (must be 0). */
  sentAgainAfterRestart: number;
}

const CHAT = '1039284756102938475';
const CAP_MS = 180_000;

/** Waits in real time until `check` holds or `capMs` passes; whether it held. */
async function until(check: () => boolean, capMs: number): Promise<boolean> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > capMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

export async function runPeerTakeover(options: PeerTakeoverOptions): Promise<PeerTakeoverResult> {
  const redis = await startRedisServer();
  const panel = createMockPanel({ token: TOKEN });
  const server = await startMockPanelServer({ panel, port: 0 });
  const kvpDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'bridge-bench-peers-kvp-')));
  const sims: Sim[] = [];
  const killToOffS: Array<number | undefined> = [];
  let sentAgainAfterRestart = 0;
  try {
    for (const kvpDir of kvpDirs) {
      sims.push(
        await createSim({
          resources: [{ dir: options.resource, name: 'bridge' }],
          convars: {
            BRIDGE_API_BASE: server.url,
            BRIDGE_LEO_API_TOKEN: TOKEN,
            BRIDGE_REDIS_URL: redis.url(),
            ...(options.livenessMs ? { BRIDGE_REDIS_LIVENESS_MS: String(options.livenessMs) } : {}),
          },
          kvpDir,
          clock: 'real',
        }),
      );
    }
    const [a] = sims as [Sim, Sim];
    const consoleOf = (sim: Sim) => sim.console.map((line) => line.text).join('\n');
    await until(() => sims.every((sim) => /is [0-9a-f]{16} in the community/.test(consoleOf(sim))), 60_000);
    const claimed = async () => {
      const [key] = (await redis.command('KEYS', `bridge:*:duty-owner:${CHAT}`)) as string[];
      const raw = key ? ((await redis.command('GET', key)) as string | null) : null;
      return raw !== null && (JSON.parse(raw) as { state?: string }).state === 'live';
    };
    const dutyCalls = () => panel.controls.requests().filter((request) => request.path.includes('/duty/')).length;

    for (let run = 0; run < options.runs; run++) {
      const seen = a.events.length;
      const player = await a.join({ name: 'Jamie', identifiers: [`license:${CHAT.slice(-16)}`, `chat:${CHAT}`] });
      const profiled = () =>
        a.events.slice(seen).some((event) => event.name === 'bridge:client:profile' && event.player === player.id);
      await until(profiled, 30_000);
      const bridge = player.exports.bridge as {
        GetDutyOptions(): { departments: Array<{ setActive(): boolean }> };
        UpdatePlayerDuty(on: boolean, callback: (outcome: DutyOutcome) => void): boolean;
      };
      bridge.GetDutyOptions().departments[0]?.setActive();
      let outcome: DutyOutcome | undefined;
      bridge.UpdatePlayerDuty(true, (answer) => {
        outcome = answer;
      });
      await until(() => outcome !== undefined, 30_000);
      // The claim is written a moment after the panel took the `on`: a server killed before that owns nothing.
      for (let tries = 0; tries < 300 && !(await claimed()); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const open = () => panel.controls.sessions(CHAT).some((session) => session.endedAt === null);
      if (!open()) {
        throw new Error(`run ${run + 1}: the player did not go on duty (${JSON.stringify(outcome)}):\n${consoleOf(a)}`);
      }

      const killedAt = Date.now();
      await a.kill();
      const ended = await until(() => !open(), CAP_MS);
      const endedAt = panel.controls.sessions(CHAT).at(-1)?.endedAt;
      killToOffS.push(ended && endedAt ? (Date.parse(endedAt) - killedAt) / 1000 : undefined);

      const before = dutyCalls();
      await a.restart();
      await until(() => /ended without stopping/.test(consoleOf(a)), 60_000);
      await new Promise((resolve) => setTimeout(resolve, 15_000));
      sentAgainAfterRestart += dutyCalls() - before;
    }
  } finally {
    await Promise.all(sims.map((sim) => sim.stop()));
    await server.close();
    await redis.stop();
    for (const dir of kvpDirs) rmSync(dir, { recursive: true, force: true });
  }
  return { livenessMs: options.livenessMs, killToOffS, sentAgainAfterRestart };
}
