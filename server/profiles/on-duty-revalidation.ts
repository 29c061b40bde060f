import type { Logger } from '../kernel/index.js';
import { WakeTimer } from '../kernel/index.js';
import type { ProfileRequestClass } from '../panel/index.js';

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
