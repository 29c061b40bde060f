// Waiting, on the injected clock: how long at most, how long before a retry, and waits that let go of their caller.
// The sleep comes from BridgeRuntime, so tests run in virtual time and no wait reads the wall clock.
import { map, Observable, race, type Subscriber, take } from 'rxjs';

/**
 * The longest the bridge waits for anything: the outbox's backoff cap, and the cap on every wait a panel or a proxy
 * in front of it asks for (`Retry-After`, a rate-limit reset). One answer saying "an hour" must not park a duty call
 * for an hour; a minute is one window of the panel's rate limit.
 */
export const LONGEST_WAIT_MS = 60_000;

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait before retry number `attempt` (from 1): the ceiling doubles from `baseMs` up to `maxMs`, and the wait
 * falls at random in its upper half ("equal jitter"), so many callers that failed together do not retry together
 * while none retries much sooner than the policy says.
 */
export function backoffMs({ baseMs, maxMs }: BackoffPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The injected sleep as an Observable that emits once when it ends. The sleep cannot be cancelled: unsubscribing lets
 * go of the subscriber at once, so a wait that stays pending for minutes after its work ended holds nothing of it
 * (`defer(() => sleep(ms))` would keep the whole closed subscription chain until the sleep ends).
 */
export function abandonableWait(sleep: (ms: number) => Promise<void>, ms: number): Observable<void> {
  return new Observable<void>((subscriber) => {
    let waiting: Subscriber<void> | undefined = subscriber;
    void sleep(ms).then(() => {
      waiting?.next();
      waiting?.complete();
    });
    return () => {
      waiting = undefined;
    };
  });
}

/**
 * Sleeps `ms`, or less when `wake$` emits first (the panel answers again, so a backoff need not be waited out).
 * Emits once what ended the wait, then completes; unsubscribing lets go of both the sleep and `wake$`.
 */
export function sleepUntilWoken(
  sleep: (ms: number) => Promise<void>,
  ms: number,
  wake$: Observable<unknown> | undefined,
): Observable<'slept' | 'woken'> {
  const slept$ = abandonableWait(sleep, ms).pipe(map(() => 'slept' as const));
  if (!wake$) return slept$;
  return race(
    slept$,
    wake$.pipe(
      take(1),
      map(() => 'woken' as const),
    ),
  );
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * Calls `onWake` at (or soon after) the earliest time asked for. The injected sleep cannot be cancelled, so only a
 * wake earlier than the pending one starts a new sleep, and a sleep that was overtaken ends without calling back:
 * a caller may ask thousands of times while holding a handful of timers.
 */
export class WakeTimer {
  private pendingAt = Number.POSITIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly onWake: () => void,
  ) {}

  wakeAt(at: number): void {
    if (this.stopped || at >= this.pendingAt) return;
    this.pendingAt = at;
    void this.clock.sleep(Math.max(0, at - this.clock.now())).then(() => {
      if (this.stopped || this.pendingAt !== at) return;
      this.pendingAt = Number.POSITIVE_INFINITY;
      this.onWake();
    });
  }

  stop(): void {
    this.stopped = true;
  }
}
