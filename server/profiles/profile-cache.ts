import { LRUCache } from 'lru-cache';
import { Subject } from 'rxjs';
import {
  ChatIdSchema,
  type Department,
  DepartmentSchema,
  type LeftOutDepartment,
} from '../../shared/contract/index.js';
import * as z from '../../shared/zod-mini.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import {
  type PanelClient,
  type PanelFailure,
  type PanelResult,
  type ProfileRequestClass,
  saysAccountUnknown,
} from '../panel/index.js';
import type { CommunityProfiles, ProfileDropped, ProfileEntry, ProfileHeld } from './profile.js';

// The profiles the server holds: the LRU cache in front of the panel, its copy in resource KVP, and the one line
// told per department the panel sends that the cache cannot read.

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
  /** A department of a profile the panel sent that does not read: it is left out of the profile, and told here. */
  onLeftOut?: (chatId: string, department: LeftOutDepartment) => void;
  /** With BRIDGE_REDIS_URL: the profiles the community's servers fetched, asked before the panel. */
  community?: CommunityProfiles;
}

// A user who is not registered yet usually fixes that within minutes (/syncme), so that answer is kept briefly.
const NOT_REGISTERED_TTL_MS = 60_000;
// The panel's own answer that is no profile (it does not match the contract, or says `ok: false` with a 2xx) is kept
// as briefly: asking again at once gets the same answer, and a fixed panel should reach players within a minute, not
// a refresh interval. Kept, it costs at most one request a minute per user, however often their client asks. An
// answer that is not the panel's own (`unreadable`) is not kept: it is an outage, and tried again like one.
const NO_PROFILE_TTL_MS = 60_000;
const NO_PROFILE: ReadonlySet<PanelFailure['kind']> = new Set(['invalid_response', 'rejected']);
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
  /** The panel's last answer for a chat id was no profile: kept like any answer, apart so a stale one stays usable. */
  private readonly noProfile: LRUCache<string, PanelFailure>;
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
    this.noProfile = new LRUCache<string, PanelFailure>({
      max: options.max ?? 4096,
      ttl: Math.min(options.ttlMs, NO_PROFILE_TTL_MS),
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
   * The profile, fetched when missing or expired (or always, with `force`); the panel's answer that was no profile,
   * within its TTL, is answered again without asking. With BRIDGE_REDIS_URL the community's copy is asked before the
   * panel, when not forced or when `communityFirst` (a forced refresh that a copy fresher than the one held will
   * do). Never throws.
   */
  async get(
    chatId: string,
    {
      force = false,
      priority = 'waiting',
      communityFirst = false,
    }: { force?: boolean; priority?: ProfileRequestClass; communityFirst?: boolean } = {},
  ): Promise<ProfileLookup> {
    const fresh = force ? undefined : this.cache.get(chatId);
    if (fresh) return { ok: true, entry: fresh };
    const noProfile = force ? undefined : this.noProfile.get(chatId);
    if (noProfile) return { ok: false, failure: noProfile, stale: this.peek(chatId) };
    if (this.options.community && (!force || communityFirst)) {
      const shared = await this.takeShared(chatId);
      if (shared) return { ok: true, entry: shared };
      // Another lookup may have got it while this one waited for Redis (a slow Redis waits up to its timeout).
      const arrived = force ? undefined : this.cache.get(chatId);
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
    this.noProfile.delete(chatId);
    this.cache.set(chatId, entry, { ttl, start: this.options.now() - shared.ageMs });
    this.changes$.next({ kind: 'held', chatId, entry, ttlMs: ttl });
    return entry;
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

  /** Held and within its TTL, or the panel's last answer was no profile within its TTL: asking now would not help. */
  isFresh(chatId: string): boolean {
    return this.cache.has(chatId) || this.noProfile.has(chatId);
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

  private store(chatId: string, result: PanelResult<{ departments: Department[]; leftOut?: LeftOutDepartment[] }>) {
    const known = this.stored.get(result);
    if (known) return known;
    let entry: ProfileEntry;
    if (result.ok) {
      for (const department of result.value.leftOut ?? []) this.options.onLeftOut?.(chatId, department);
      entry = { kind: 'found', chatId, departments: result.value.departments, fetchedAt: this.options.wallNow() };
    } else if (saysAccountUnknown(result.failure)) {
      entry = { kind: 'not_registered', chatId, fetchedAt: this.options.wallNow() };
    } else {
      // Any other failure leaves the profile held as it was, in memory and in KVP.
      if (NO_PROFILE.has(result.failure.kind)) this.noProfile.set(chatId, result.failure);
      return undefined;
    }
    this.noProfile.delete(chatId);
    this.stored.set(result, entry);
    const ttl = this.ttlOf(entry);
    this.cache.set(chatId, entry, { ttl });
    this.changes$.next({ kind: 'held', chatId, entry, ttlMs: ttl });
    this.options.community?.publish(entry, ttl);
    return entry;
  }
}

const PROFILE_KEY_PREFIX = 'profile:';

// What a previous run wrote (or another server of the community, in Redis) is checked like a panel answer, with the
// contract's department schema: a changed format or a damaged value is dropped.
export const PersistedProfileSchema = z.object({
  ttlMs: z.number().check(z.int(), z.positive()),
  entry: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('found'),
      chatId: ChatIdSchema,
      departments: z.array(DepartmentSchema),
      fetchedAt: z.number(),
    }),
    z.object({ kind: z.literal('not_registered'), chatId: ChatIdSchema, fetchedAt: z.number() }),
  ]),
});

export interface PersistedProfile {
  entry: ProfileEntry;
  ttlMs: number;
}

/**
 * Profiles in resource KVP, so the players who come back after a restart are known without asking the panel.
 * One key per chat id; the cache decides what is kept and for how long.
 */
export class ProfilePersistence {
  constructor(private readonly store: KeyValueStore) {}

  save(entry: ProfileEntry, ttlMs: number): void {
    this.store.set(`${PROFILE_KEY_PREFIX}${entry.chatId}`, JSON.stringify({ ttlMs, entry }));
  }

  delete(chatId: string): void {
    this.store.delete(`${PROFILE_KEY_PREFIX}${chatId}`);
  }

  /** Every readable profile; unreadable ones are deleted. */
  loadAll(): PersistedProfile[] {
    const profiles: PersistedProfile[] = [];
    for (const key of this.store.keys(PROFILE_KEY_PREFIX)) {
      const parsed = PersistedProfileSchema.safeParse(parseJson(this.store.get(key)));
      if (parsed.success && key === `${PROFILE_KEY_PREFIX}${parsed.data.entry.chatId}`) profiles.push(parsed.data);
      else this.store.delete(key);
    }
    return profiles;
  }
}

function parseJson(value: string | null): unknown {
  if (value === null) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** What the panel sent as an id or slug, short enough for one console line. */
const shown = (value: unknown): string => (value === undefined ? 'none' : String(JSON.stringify(value)).slice(0, 40));

/**
 * Tells the owner once per department that the panel sends one the bridge cannot read, naming the player it was first
 * seen for: the department is the panel's configuration, the same for every member, so one line says it all.
 */
export function tellLeftOutDepartment(logger: Pick<Logger, 'once'>) {
  return (chatId: string, { id, slug, problem }: LeftOutDepartment): void => {
    const department = `id ${shown(id)} (slug ${shown(slug)})`;
    logger.once(
      `department-left-out:${department}`,
      'warn',
      `the panel's department ${department} of chat id ${chatId} cannot be read (${problem}); it is left out, and the player's other departments are kept`,
    );
  };
}
