import { type Logger, type PlayerRegistry, WakeTimer } from '../kernel/index.js';
import type { ProfileRequestClass } from '../panel/index.js';
import type { ProfileEntry } from './profile.js';
import { isMember, type ProfileCache } from './profile-cache.js';

// When profiles are fetched again: on need, by polling the players on duty, at a client's gated ask; and what a short
// refresh interval costs the panel's budget.

export interface RefreshPolicyOptions {
  cache: ProfileCache;
  players: PlayerRegistry;
  /** A profile fetched in the background for an online player, to send to their client and check their duty. */
  onRefreshed: (src: number, entry: ProfileEntry) => void;
}

/**
 * When profiles are fetched again. A profile is refreshed when something needs it (the client asks for it, a player
 * joins) and it is past its TTL; only players on duty are polled (`OnDutyRevalidation`, below), through `refresh`.
 * The stale one is used meanwhile and the refresh waits in the background classes, department members before the
 * others, so however many players need one, refreshes only get the budget the interactive work leaves and never
 * more than the panel allows.
 */
export class RefreshPolicy {
  /** The background refresh of each chat id on its way, which every other asker shares. */
  private readonly refreshing = new Map<string, Promise<void>>();

  constructor(private readonly options: RefreshPolicyOptions) {}

  /**
   * Refreshes a stale profile in the background (once, however many ask meanwhile). `requestClass` when a player
   * waits for it: a refresh already on its way is joined and moved up to that class, never sent a second time.
   */
  revalidate(chatId: string, stale: ProfileEntry | undefined, requestClass?: ProfileRequestClass): void {
    if (requestClass && this.refreshing.has(chatId)) {
      // Not forced: the scheduler's single flight joins the request that is queued or in flight.
      void this.options.cache.get(chatId, { priority: requestClass });
      return;
    }
    const priority = requestClass ?? (isMember(stale) ? 'member-refresh' : 'other-refresh');
    // A copy another server of the community got while this one's went stale will do (one it missed while it was
    // down, say); none, and the panel is asked.
    void this.fetchOnce(chatId, { force: true, priority, communityFirst: true });
  }

  /**
   * Fetches a profile in the background at `priority` and tells its online players; resolves once that is done.
   * One refresh of a chat id at a time, however many ask meanwhile.
   */
  refresh(chatId: string, priority: ProfileRequestClass): Promise<void> {
    return this.fetchOnce(chatId, { force: true, priority });
  }

  /**
   * The panel answers again after an outage: players who joined meanwhile get the profile they could not, and
   * stale ones are refreshed, all through the scheduler at their usual classes.
   */
  recover(): void {
    const { cache, players } = this.options;
    for (const session of players.all()) {
      if (!session.chat.ok) continue;
      const { chatId } = session.chat;
      const entry = cache.peek(chatId);
      if (!entry) void this.fetchOnce(chatId, { priority: 'join' });
      else if (!cache.isFresh(chatId)) this.revalidate(chatId, entry);
    }
  }

  /**
   * Another server of the community got this account's profile from the panel again (/dutyrefresh, a role change,
   * its on-duty polling): a server that holds it takes the community's copy, and its online players get it and have
   * their duty checked against it, as after a refresh of its own. A server that does not hold it waits until it is
   * needed.
   */
  adopt(chatId: string): Promise<void> {
    const { cache, players } = this.options;
    const online = players.sessionsOf(chatId).length > 0;
    if (!online && !cache.peek(chatId)) return Promise.resolve();
    return cache.takeShared(chatId).then((entry) => {
      if (entry) this.tell(chatId, entry);
    });
  }

  /** Fetches a profile and tells its online players, unless a fetch of it is on its way already: that one is shared. */
  private fetchOnce(chatId: string, options: Parameters<ProfileCache['get']>[1]): Promise<void> {
    const running = this.refreshing.get(chatId);
    if (running) return running;
    const fetched = this.options.cache
      .get(chatId, options)
      .then((lookup) => {
        if (lookup.ok) this.tell(chatId, lookup.entry);
      })
      .finally(() => this.refreshing.delete(chatId));
    this.refreshing.set(chatId, fetched);
    return fetched;
  }

  private tell(chatId: string, entry: ProfileEntry): void {
    for (const session of this.options.players.sessionsOf(chatId)) this.options.onRefreshed(session.src, entry);
  }
}

export interface OnDutyRevalidationOptions {
  /** `Config.RefreshIntervalMs`: how old an on-duty player's profile may get before it is fetched again. */
  intervalMs: number;
  /** The monotonic clock. */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** How long the profile held for a chat account stays within its TTL (0: stale or missing). */
  freshForMs: (chatId: string) => number;
  /** Fetches the profile in the background; its online players get it, and their duty is reconciled with it. */
  refresh: (chatId: string, priority: ProfileRequestClass) => Promise<void>;
  logger: Logger;
}

/** Who holds each chat account's duty, and when that account is next looked at (monotonic). */
interface Polled {
  src: number;
  dueAt: number;
  /** Its profile is being fetched: the next look is scheduled once the fetch ends. */
  fetching: boolean;
}

/**
 * Keeps the profiles of players on duty current: a department removed or a rank changed in the panel reaches the
 * game within one interval plus the queue, without anyone asking. Duty is per chat account, so is the polling.
 *
 * The first look comes one interval after going on duty (the panel checked membership and rank when it accepted the
 * `on`), then whenever the profile held goes past its TTL: a profile refreshed meanwhile for another reason (the
 * client asked, /dutyrefresh) moves the next fetch back instead of adding one. So an on-duty player costs at most
 * one request per interval, and the polls of many players are spread by when each went on duty and when each
 * profile was fetched. Fetches wait in the `member-refresh` class, behind every interactive request, and share a
 * refresh already on its way.
 *
 * Every account waits on one timer, set for the earliest look: timer.js walks each waiting timer in every server
 * frame, so one timer per player on duty would cost a server of 400 on duty 400 checks a frame (resmon).
 */
export class OnDutyRevalidation {
  private readonly polled = new Map<string, Polled>();
  private readonly timer: WakeTimer;
  private stopped = false;

  constructor(private readonly options: OnDutyRevalidationOptions) {
    this.timer = new WakeTimer(options, () => this.wake());
  }

  /** A player's duty changed; `chatId` is their chat account (none: they cannot be on duty). */
  dutyChanged(src: number, chatId: string | undefined, onDuty: boolean): void {
    if (chatId === undefined || this.stopped) return;
    const current = this.polled.get(chatId);
    if (onDuty) {
      // A new rank is the same duty: its polling goes on. Another session taking the account's duty starts anew.
      if (current?.src === src) return;
      this.lookIn(chatId, { src, dueAt: 0, fetching: false }, this.options.intervalMs);
    } else if (current?.src === src) {
      this.polled.delete(chatId);
    }
  }

  /** Chat accounts being polled: 0 once nobody is on duty. */
  get size(): number {
    return this.polled.size;
  }

  stop(): void {
    this.stopped = true;
    this.polled.clear();
    this.timer.stop();
  }

  private lookIn(chatId: string, entry: Polled, ms: number): void {
    entry.dueAt = this.options.now() + ms;
    this.polled.set(chatId, entry);
    this.timer.wakeAt(entry.dueAt);
  }

  /** Looks at every account due, and sets the timer for the next one. */
  private wake(): void {
    const now = this.options.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [chatId, entry] of this.polled) {
      if (entry.fetching) continue;
      if (entry.dueAt <= now) this.look(chatId, entry, now);
      if (!entry.fetching) next = Math.min(next, entry.dueAt);
    }
    if (next !== Number.POSITIVE_INFINITY) this.timer.wakeAt(next);
  }

  /**
   * Waits out the profile's freshness, or fetches it and looks again an interval after the fetch (also after a
   * failed one: the breaker's recovery refreshes stale profiles once the panel answers again).
   */
  private look(chatId: string, entry: Polled, now: number): void {
    const { intervalMs, freshForMs, refresh, logger } = this.options;
    const freshMs = freshForMs(chatId);
    if (freshMs > 0) {
      entry.dueAt = now + Math.min(freshMs, intervalMs);
      return;
    }
    entry.fetching = true;
    refresh(chatId, 'member-refresh')
      .catch((error: unknown) => logger.error(`the background refresh of an on-duty profile failed: ${String(error)}`))
      .finally(() => {
        entry.fetching = false;
        // The duty ended or moved to another session meanwhile: that one has its own look.
        if (!this.stopped && this.polled.get(chatId) === entry) this.lookIn(chatId, entry, intervalMs);
      });
  }
}

/**
 * The server's own gate on `bridge:internal:revalidate`: one ask per player per refresh interval, on the monotonic
 * clock, whatever a client sends, so a script cannot spend the panel's budget by asking. The bridge's client counts
 * a profile's age from when it arrived, after the server took the ask, so its next ask never comes too early here.
 */
export class RevalidationAsks {
  private readonly admittedAt = new Map<number, number>();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {}

  /** Whether this player's ask is the first within the interval; counts it if so. */
  admit(src: number): boolean {
    const now = this.now();
    const last = this.admittedAt.get(src);
    if (last !== undefined && now - last < this.intervalMs) return false;
    this.admittedAt.set(src, now);
    return true;
  }

  /** The player left. */
  forget(src: number): void {
    this.admittedAt.delete(src);
  }

  get size(): number {
    return this.admittedAt.size;
  }
}

/** Below this, `RefreshIntervalMs` is a tester's setting, and the bridge says what it costs. */
export const SHORT_REFRESH_INTERVAL_MS = 60_000;
// The second line comes once the players online could spend this share of the panel's budget on refreshes alone:
// past it, duty calls start to wait behind profiles.
const BUDGET_SHARE = 0.5;

export interface PanelBudget {
  limit: number;
  windowMs: number;
}

const MINUTE_MS = 60_000;
const rounded = (value: number) => String(Math.round(value * 10) / 10);

/**
 * A short interval costs panel requests: every player online may revalidate once per interval (in the background
 * while on duty, when a duty menu asks otherwise). Logs that cost once at start, before anyone is online, per
 * player; then once more, the first time the players online could spend more than half the budget. Returns what
 * to call with the number of players online after each join (nothing to do for an interval of a minute or more).
 */
export function announceShortRefreshInterval(
  intervalMs: number,
  budget: PanelBudget,
  logger: Logger,
): (playersOnline: number) => void {
  if (intervalMs >= SHORT_REFRESH_INTERVAL_MS) return () => {};
  const perPlayer = MINUTE_MS / intervalMs;
  const budgetPerMinute = (budget.limit * MINUTE_MS) / budget.windowMs;
  const crowd = Math.floor((budgetPerMinute * BUDGET_SHARE) / perPlayer) + 1;
  logger.warn(
    `RefreshIntervalMs = ${intervalMs} is below ${SHORT_REFRESH_INTERVAL_MS}, a setting for testing: each player ` +
      `online can cost up to ${rounded(perPlayer)} profile request(s) a minute (on duty in the background, off duty ` +
      `when a duty menu asks) of the panel's ${rounded(budgetPerMinute)} a minute; ${crowd} players online could ` +
      'spend more than half of it',
  );
  let told = false;
  return (playersOnline) => {
    if (told || playersOnline < crowd) return;
    told = true;
    logger.warn(
      `${playersOnline} players online at RefreshIntervalMs = ${intervalMs} can cost up to ` +
        `${rounded(playersOnline * perPlayer)} profile requests a minute, more than half of the panel's ` +
        `${rounded(budgetPerMinute)}; duty calls go first and refreshes wait. Raise RefreshIntervalMs to ` +
        `${SHORT_REFRESH_INTERVAL_MS} or more outside testing`,
    );
  };
}
