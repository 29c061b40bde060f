import { INTERNAL_EVENTS } from '../../../shared/events.js';
import type { PlayerRegistry, ServerPort } from '../../kernel/index.js';
import type { Profiles } from '../../profiles/index.js';
import type { ClientEventLimits } from './client-event-limits.js';

export interface RefreshRequestDeps {
  port: Pick<ServerPort, 'emitClient'>;
  players: PlayerRegistry;
  limits: ClientEventLimits;
  profiles: Pick<Profiles, 'refresh'>;
  /** The monotonic clock. */
  now: () => number;
  cooldownMs: number;
}

/**
 * /dutyrefresh: the profile fetched again bypassing the cache, after a cooldown per player. The cooldown, set before
 * the request goes out, keeps one player's refreshes apart; players never wait for each other's.
 */
export const refreshRequestHandler =
  ({ port, players, limits, profiles, now, cooldownMs }: RefreshRequestDeps) =>
  async (src: number): Promise<void> => {
    const session = players.get(src);
    if (!session) return;
    const at = now();
    const waitMs = session.lastRefreshAt === undefined ? 0 : session.lastRefreshAt + cooldownMs - at;
    if (waitMs > 0 || !limits.admit('refresh', src)) {
      port.emitClient(INTERNAL_EVENTS.notify, src, 'refresh_cooldown', {
        seconds: Math.max(1, Math.ceil(waitMs / 1000)),
      });
      return;
    }
    session.lastRefreshAt = at;
    const view = await profiles.refresh(src);
    port.emitClient(INTERNAL_EVENTS.notify, src, view.payload.ok && !view.stale ? 'refreshed' : 'refresh_failed', {});
  };
