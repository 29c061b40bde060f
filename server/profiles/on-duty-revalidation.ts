import { catchError, concatMap, defer, from, type Observable, of, repeat, type Subscription } from 'rxjs';
import type { Logger } from '../log/logger.js';
import type { ProfileRequestClass } from '../panel/scheduling/request-classes.js';
import { abandonableWait } from '../time/abandonable-wait.js';

export interface OnDutyRevalidationOptions {
  /** `Config.RefreshIntervalMs`: how old an on-duty player's profile may get before it is fetched again. */
  intervalMs: number;
  sleep: (ms: number) => Promise<void>;
  /** How long the profile held for a chat account stays within its TTL (0: stale or missing). */
  freshForMs: (chatId: string) => number;
  /** Fetches the profile in the background; its online players get it, and their duty is reconciled with it. */
  refresh: (chatId: string, priority: ProfileRequestClass) => Promise<void>;
  logger: Logger;
}

/** Who holds each chat account's duty, and that account's polling. */
interface Polled {
  src: number;
  subscription: Subscription;
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
 */
export class OnDutyRevalidation {
  private readonly polled = new Map<string, Polled>();

  constructor(private readonly options: OnDutyRevalidationOptions) {}

  /** A player's duty changed; `chatId` is their chat account (none: they cannot be on duty). */
  dutyChanged(src: number, chatId: string | undefined, onDuty: boolean): void {
    if (chatId === undefined) return;
    const current = this.polled.get(chatId);
    if (onDuty) {
      // A new rank is the same duty: its polling goes on. Another session taking the account's duty starts anew.
      if (current?.src === src) return;
      current?.subscription.unsubscribe();
      this.polled.set(chatId, { src, subscription: this.poll(chatId).subscribe() });
    } else if (current?.src === src) {
      current.subscription.unsubscribe();
      this.polled.delete(chatId);
    }
  }

  /** Chat accounts being polled: 0 once nobody is on duty. */
  get size(): number {
    return this.polled.size;
  }

  stop(): void {
    for (const { subscription } of this.polled.values()) subscription.unsubscribe();
    this.polled.clear();
  }

  private poll(chatId: string): Observable<unknown> {
    const { intervalMs, freshForMs, refresh, logger } = this.options;
    const { sleep } = this.options;
    const wait = (ms: number) => abandonableWait(sleep, ms);
    // One step: wait out the profile's freshness, or fetch it and wait an interval (also after a failed fetch: the
    // breaker's recovery refreshes stale profiles once the panel answers again).
    const step = defer(() => {
      const freshMs = freshForMs(chatId);
      if (freshMs > 0) return wait(Math.min(freshMs, intervalMs));
      return from(refresh(chatId, 'member-refresh')).pipe(
        catchError((error: unknown) => {
          logger.error(`the background refresh of an on-duty profile failed: ${String(error)}`);
          return of(undefined);
        }),
        concatMap(() => wait(intervalMs)),
      );
    });
    return wait(intervalMs).pipe(concatMap(() => step.pipe(repeat())));
  }
}
