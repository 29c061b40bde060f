import { LRUCache } from 'lru-cache';
import { Subject } from 'rxjs';
import type { Department } from '../../shared/contract/index.js';
import type { CommunityProfiles } from '../community/community.js';
import type { PanelClient } from '../panel/panel-client.js';
import type { PanelFailure, PanelResult } from '../panel/panel-result.js';
import type { ProfileRequestClass } from '../panel/scheduling/request-classes.js';
import type { PersistedProfile } from './profile-persistence.js';
import type { ProfileDropped, ProfileHeld } from './profile-updates.js';

/** `fetchedAt` is a moment in the world (wall clock, epoch ms): clients see it, and KVP keeps it across restarts. */
export type ProfileEntry =
  | { kind: 'found'; chatId: string; departments: Department[]; fetchedAt: number }
  | { kind: 'not_registered'; chatId: string; fetchedAt: number };

export type ProfileLookup =
  | { ok: true; entry: ProfileEntry }
  | { ok: false; failure: PanelFailure; stale: ProfileEntry | undefined };

export interface ProfileCacheOptions {
  ttlMs: number;
  /** The monotonic clock: every TTL runs on it. */
  now: () => number;
  /** The wall clock: when a profile was fetched, as clients and the KVP copy see it. */
  wallNow: () => number;
  /** Enough for every player of the largest server plus those who left recently. */
  max?: number;
  /** How long past its expiry a kept profile is still loaded at start, as the stale fallback. */
  keepStaleMs?: number;
  /** With BRIDGE_REDIS_URL: the profiles the community's servers fetched, asked before the panel. */
  community?: CommunityProfiles;
}

// A user who is not registered yet usually fixes that within minutes (/syncme), so that answer is kept briefly.
const NOT_REGISTERED_TTL_MS = 60_000;
// An answer that is no profile (it does not parse, or says `ok: false` with a 2xx) is kept as briefly: asking again
// at once gets the same answer, and a fixed panel or proxy should reach players within a minute, not a refresh
// interval. Kept, it costs at most one request a minute per user, however often their client asks.
const UNREADABLE_TTL_MS = 60_000;
const UNREADABLE: ReadonlySet<PanelFailure['kind']> = new Set(['invalid_response', 'rejected']);
const DAY_MS = 86_400_000;

/** A department member's profile matters more: they can go on duty, and a rank change affects them. */
export const isMember = (entry: ProfileEntry | undefined): boolean =>
  entry?.kind === 'found' && entry.departments.length > 0;

/**
 * Player profiles by chat id: kept for the refresh interval, and kept past it as the fallback when the panel cannot
 * be asked. Concurrent fetches of one id share one request: the scheduler's single flight, the one place that
 * deduplicates. What it takes and lets go is told on `changes$` (the KVP copy follows it).
 */
export class ProfileCache {
  readonly changes$ = new Subject<ProfileHeld | ProfileDropped>();
  private readonly cache: LRUCache<string, ProfileEntry>;
  /** The last answer for a chat id was no profile: kept like any answer, apart so a stale profile stays usable. */
  private readonly unreadable: LRUCache<string, PanelFailure>;
  // Callers that shared one request get the same result object: only the first stores it.
  private readonly stored = new WeakMap<object, ProfileEntry>();

  constructor(
    private readonly panel: Pick<PanelClient, 'getDepartments'>,
    private readonly options: ProfileCacheOptions,
  ) {
    this.cache = new LRUCache<string, ProfileEntry>({
      max: options.max ?? 4096,
      ttl: options.ttlMs,
      perf: { now: options.now },
      noDeleteOnStaleGet: true,
      dispose: (_entry, chatId, reason) => {
        if (reason === 'evict' || reason === 'delete') this.changes$.next({ kind: 'dropped', chatId });
      },
    });
    this.unreadable = new LRUCache<string, PanelFailure>({
      max: options.max ?? 4096,
      ttl: Math.min(options.ttlMs, UNREADABLE_TTL_MS),
      perf: { now: options.now },
    });
  }

  /**
   * Loads what a previous run kept: fresh profiles as they were, stale ones as the fallback; one too old even for
   * that is dropped. Another process's monotonic clock means nothing here, so a kept profile's age is its wall-clock
   * age, and one that the wall clock puts in the future (the clock was set back) counts as fetched just now: never
   * younger than zero. Returns how many were loaded.
   */
  restore(previousRun: readonly PersistedProfile[]): number {
    const wallNow = this.options.wallNow();
    const keepStaleMs = this.options.keepStaleMs ?? DAY_MS;
    const ageOf = (entry: ProfileEntry) => Math.max(0, wallNow - entry.fetchedAt);
    const kept = previousRun
      .filter(({ entry, ttlMs }) => {
        if (ageOf(entry) <= ttlMs + keepStaleMs) return true;
        this.changes$.next({ kind: 'dropped', chatId: entry.chatId });
        return false;
      })
      .sort((a, b) => ageOf(b.entry) - ageOf(a.entry));
    const now = this.options.now();
    for (const { entry, ttlMs } of kept) {
      this.cache.set(entry.chatId, entry, { ttl: ttlMs, start: now - ageOf(entry) });
    }
    return kept.length;
  }

  /**
   * The profile, fetched when missing or expired (or always, with `force`); an unreadable answer within its TTL is
   * answered again without asking. Never throws.
   */
  async get(
    chatId: string,
    { force = false, priority = 'waiting' }: { force?: boolean; priority?: ProfileRequestClass } = {},
  ): Promise<ProfileLookup> {
    const fresh = force ? undefined : this.cache.get(chatId);
    if (fresh) return { ok: true, entry: fresh };
    const unreadable = force ? undefined : this.unreadable.get(chatId);
    if (unreadable) return { ok: false, failure: unreadable, stale: this.peek(chatId) };
    if (!force && this.options.community) {
      const shared = await this.takeShared(chatId);
      if (shared) return { ok: true, entry: shared };
      // Another lookup may have got it while this one waited for Redis (a slow Redis waits up to its timeout).
      const arrived = this.cache.get(chatId);
      if (arrived) return { ok: true, entry: arrived };
    }
    const result = await this.panel.getDepartments(chatId, { priority, fresh: force });
    const entry = this.store(chatId, result);
    if (entry) return { ok: true, entry };
    const failure: PanelFailure = result.ok ? { kind: 'invalid_response', message: 'no profile' } : result.failure;
    return { ok: false, failure, stale: this.peek(chatId) };
  }

  /**
   * The community's copy of a profile, taken as this server's own while some of its freshness is left: a profile
   * another server fetched costs no request here. Its age comes from Redis's clock, and its freshness runs on this
   * server's monotonic clock from there. Resolves to nothing when there is none (or Redis is gone).
   */
  async takeShared(chatId: string): Promise<ProfileEntry | undefined> {
    const shared = await this.options.community?.read(chatId);
    if (!shared) return undefined;
    const ttl = this.ttlOf(shared.entry);
    if (shared.ageMs >= ttl) return undefined;
    // When it was fetched, on this server's wall clock (the fetching server's may disagree): what this server's
    // clients see and what its KVP copy is aged by at the next start.
    const entry = { ...shared.entry, fetchedAt: this.options.wallNow() - shared.ageMs };
    this.unreadable.delete(chatId);
    this.cache.set(chatId, entry, { ttl, start: this.options.now() - shared.ageMs });
    this.changes$.next({ kind: 'held', chatId, entry, ttlMs: ttl });
    return entry;
  }

  /** With BRIDGE_REDIS_URL: the community's copies are asked before the panel. */
  get sharesWithCommunity(): boolean {
    return this.options.community !== undefined;
  }

  /** Offers a profile held fresh here to the community, unless it holds one already (Redis came back). */
  offerToCommunity(chatId: string): void {
    const entry = this.cache.get(chatId, { allowStale: false });
    const freshForMs = this.freshForMs(chatId);
    if (entry && freshForMs > 0) this.options.community?.offer(entry, this.ttlOf(entry), freshForMs);
  }

  /** The entry as cached, fresh or not, without fetching. */
  peek(chatId: string): ProfileEntry | undefined {
    return this.cache.get(chatId, { allowStale: true });
  }

  /** Held and within its TTL, or the panel's last answer was unreadable within its TTL: asking now would not help. */
  isFresh(chatId: string): boolean {
    return this.cache.has(chatId) || this.unreadable.has(chatId);
  }

  /** How long the held profile stays within its TTL: 0 when it is stale or missing. */
  freshForMs(chatId: string): number {
    return this.cache.has(chatId) ? Math.max(0, this.cache.getRemainingTTL(chatId)) : 0;
  }

  get size(): number {
    return this.cache.size;
  }

  private ttlOf(entry: ProfileEntry): number {
    return entry.kind === 'not_registered' ? Math.min(this.options.ttlMs, NOT_REGISTERED_TTL_MS) : this.options.ttlMs;
  }

  private store(chatId: string, result: PanelResult<{ departments: Department[] }>) {
    const known = this.stored.get(result);
    if (known) return known;
    let entry: ProfileEntry;
    let ttl = this.options.ttlMs;
    if (result.ok) {
      entry = { kind: 'found', chatId, departments: result.value.departments, fetchedAt: this.options.wallNow() };
    } else if (result.failure.kind === 'not_found') {
      ttl = Math.min(ttl, NOT_REGISTERED_TTL_MS);
      entry = { kind: 'not_registered', chatId, fetchedAt: this.options.wallNow() };
    } else {
      if (UNREADABLE.has(result.failure.kind)) this.unreadable.set(chatId, result.failure);
      return undefined;
    }
    this.unreadable.delete(chatId);
    this.stored.set(result, entry);
    this.cache.set(chatId, entry, { ttl });
    this.changes$.next({ kind: 'held', chatId, entry, ttlMs: ttl });
    this.options.community?.publish(entry, ttl);
    return entry;
  }
}
