import { LRUCache } from 'lru-cache';
import type { Department, PanelUser } from '../../shared/contract/index.js';
import type { PanelClient } from '../panel/panel-client.js';
import type { PanelFailure } from '../panel/panel-result.js';

export type ProfileEntry =
  | { kind: 'found'; chatId: string; user: PanelUser; departments: Department[]; fetchedAt: number }
  | { kind: 'not_registered'; chatId: string; fetchedAt: number };

export type ProfileLookup =
  | { ok: true; entry: ProfileEntry }
  | { ok: false; failure: PanelFailure; stale: ProfileEntry | undefined };

export interface ProfileCacheOptions {
  ttlMs: number;
  now: () => number;
  /** Enough for every player of the largest server plus those who left recently. */
  max?: number;
}

class PanelFailureError extends Error {
  constructor(readonly failure: PanelFailure) {
    super(failure.message);
  }
}

// A user who is not registered yet usually fixes that within minutes (/syncme), so that answer is kept briefly.
const NOT_REGISTERED_TTL_MS = 60_000;

/**
 * Player profiles by chat id. Concurrent lookups of one id share one request (lru-cache's fetch), entries live for
 * the refresh interval, and a failed refresh keeps the old entry so callers can fall back to it.
 */
export class ProfileCache {
  private readonly cache: LRUCache<string, ProfileEntry>;

  constructor(panel: Pick<PanelClient, 'getDepartments'>, options: ProfileCacheOptions) {
    this.cache = new LRUCache<string, ProfileEntry>({
      max: options.max ?? 4096,
      ttl: options.ttlMs,
      perf: { now: options.now },
      noDeleteOnFetchRejection: true,
      noDeleteOnStaleGet: true,
      fetchMethod: async (chatId, _stale, { options: entryOptions }) => {
        const result = await panel.getDepartments(chatId);
        const fetchedAt = options.now();
        if (result.ok) {
          const { user, departments } = result.value;
          return { kind: 'found', chatId, user, departments, fetchedAt };
        }
        if (result.failure.kind === 'not_found') {
          entryOptions.ttl = Math.min(options.ttlMs, NOT_REGISTERED_TTL_MS);
          return { kind: 'not_registered', chatId, fetchedAt };
        }
        throw new PanelFailureError(result.failure);
      },
    });
  }

  /** The profile, fetched when missing or expired (or always, with `force`). Never throws. */
  async get(chatId: string, { force = false }: { force?: boolean } = {}): Promise<ProfileLookup> {
    try {
      const entry = await this.cache.fetch(chatId, { forceRefresh: force });
      if (entry) return { ok: true, entry };
      return { ok: false, failure: { kind: 'invalid_response', message: 'no profile' }, stale: undefined };
    } catch (error) {
      const failure: PanelFailure =
        error instanceof PanelFailureError ? error.failure : { kind: 'network', message: String(error) };
      return { ok: false, failure, stale: this.cache.get(chatId, { allowStale: true }) };
    }
  }

  /** The entry as cached, fresh or not, without fetching. */
  peek(chatId: string): ProfileEntry | undefined {
    return this.cache.get(chatId, { allowStale: true });
  }

  get size(): number {
    return this.cache.size;
  }
}
