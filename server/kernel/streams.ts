// The bridge's own stream operators: work per key, one after another (concatMapPerKey, and LanesPerKey for callers
// that are not streams), and "subscribe, log the error, go on" (guarded, eachGuarded).
import {
  catchError,
  defer,
  EMPTY,
  from,
  ignoreElements,
  isObservable,
  mergeMap,
  Observable,
  type ObservableInput,
  type OperatorFunction,
  Subject,
  type Subscription,
} from 'rxjs';
import type { Logger } from './log.js';

/** A key's lane: the values not worked yet (the one being worked has left it). */
interface Lane<T> {
  waiting: T[];
}

/**
 * `groupBy(key)` + `concatMap(work)`: each key's values are worked one after another, keys never wait for each
 * other, and a key's lane closes as soon as it has nothing queued or running, so keys that come and go (players,
 * chat accounts) leave nothing behind. Written as one operator rather than composed from groupBy, concatMap and
 * finalize: every duty toggle opens a lane in two places (the account's intents and its outbox calls), and the
 * composed form built a group, its subject, a closing subject and four subscribers for each, most of a toggle's
 * rxjs allocations (docs/budget.md, "Bytes allocated per duty toggle"). Errors and completion behave as mergeMap's:
 * a failed work or source fails the output, which completes once the source has and every lane is empty.
 */
export function concatMapPerKey<T, K, R>(
  keyOf: (value: T) => K,
  work: (value: T) => ObservableInput<R>,
  lanes?: { open: number },
): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) => {
      const open = new Map<K, Lane<T>>();
      const running = new Set<Subscription>();
      let sourceDone = false;
      const completeIfIdle = () => {
        if (sourceDone && open.size === 0) subscriber.complete();
      };
      const close = (key: K) => {
        open.delete(key);
        if (lanes) lanes.open -= 1;
      };
      // Works the lane's values in turn. A work that ends synchronously lets the loop go on (no recursion, so a long
      // lane of synchronous work cannot overflow the stack); one that ends later starts the lane again.
      const run = (key: K, lane: Lane<T>) => {
        while (lane.waiting.length > 0) {
          const current = lane.waiting.shift() as T;
          let input: Observable<R>;
          try {
            input = from(work(current));
          } catch (error) {
            subscriber.error(error);
            return;
          }
          let subscribing = true;
          let endedNow = false;
          const inner: Subscription = input.subscribe({
            next: (result) => subscriber.next(result),
            error: (error: unknown) => subscriber.error(error),
            complete: () => {
              if (subscribing) {
                endedNow = true;
                return;
              }
              running.delete(inner);
              if (!subscriber.closed) run(key, lane);
            },
          });
          subscribing = false;
          if (subscriber.closed) {
            inner.unsubscribe();
            return;
          }
          if (!endedNow) {
            running.add(inner);
            return;
          }
        }
        close(key);
        completeIfIdle();
      };
      const sourceSubscription = source.subscribe({
        next: (value) => {
          if (subscriber.closed) return;
          // The key is read once per value: a key function that looks things up may answer differently later.
          let key: K;
          try {
            key = keyOf(value);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          const lane = open.get(key);
          if (lane) {
            lane.waiting.push(value);
            return;
          }
          const fresh: Lane<T> = { waiting: [value] };
          open.set(key, fresh);
          if (lanes) lanes.open += 1;
          run(key, fresh);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceDone = true;
          completeIfIdle();
        },
      });
      return () => {
        sourceSubscription.unsubscribe();
        for (const inner of running) inner.unsubscribe();
        running.clear();
        if (lanes) lanes.open -= open.size;
        open.clear();
      };
    });
}

/**
 * A task in a lane: done when it returns, or, when it returns an Observable or a Promise (of any realm), once that
 * completes or settles.
 */
export type LaneTask = () => unknown;

// Any thenable, not `instanceof Promise`: a promise of another realm counts too (see LaneTask).
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/**
 * Imperative callers' door to `concatMapPerKey`: `run(key, task)` queues a task in the key's lane. A task that
 * answers synchronously runs inside `run` when its lane is idle (so a resource stop, which gives no later tick, still
 * does its work); while one that answers with a Promise is pending, the key's later tasks wait for it. A lane closes
 * when it has nothing left, so a key that comes and goes (a player) leaves nothing behind.
 */
export class LanesPerKey<K> {
  private readonly tasks$ = new Subject<{ key: K; task: LaneTask }>();
  private readonly lanes = { open: 0 };
  private readonly subscription: Subscription;

  /** `failed`: a task handles its own failures; one that threw or rejected anyway is told here, the lane goes on. */
  constructor(failed: (error: unknown) => void) {
    this.subscription = this.tasks$
      .pipe(
        concatMapPerKey(
          ({ key }) => key,
          ({ task }) =>
            defer(() => {
              const pending = task();
              return isObservable(pending) || isThenable(pending) ? from(pending) : EMPTY;
            }).pipe(
              catchError((error: unknown) => {
                failed(error);
                return EMPTY;
              }),
            ),
          this.lanes,
        ),
      )
      .subscribe();
  }

  run(key: K, task: LaneTask): void {
    this.tasks$.next({ key, task });
  }

  /** Keys with a task queued or running. */
  get open(): number {
    return this.lanes.open;
  }

  stop(): void {
    this.subscription.unsubscribe();
  }
}

/** What failed, for the log line `<what> failed: <error>`: fixed, or named after the value it was handling. */
export type GuardedWhat<T> = string | ((value: T) => string);

/**
 * The handling of one value as the inner stream of a `mergeMap`. A failure is logged and ends only this value's
 * handling: never the outer stream, never the code that emitted the value. Work that returns no promise runs and
 * fails synchronously, so handlers subscribed in order keep their order; a promise is awaited, and values never
 * wait for each other's.
 */
export const guarded =
  <T>(what: GuardedWhat<T>, logger: Logger, work: (value: T) => unknown) =>
  (value: T): Observable<never> =>
    defer(() => {
      const result = work(value);
      return isThenable(result) ? from(result) : EMPTY;
    }).pipe(
      catchError((error: unknown) => {
        logger.error(`${typeof what === 'string' ? what : what(value)} failed: ${String(error)}`);
        return EMPTY;
      }),
      ignoreElements(),
    );

/** Subscribes `work` to every value of `values$`, each handled by `guarded`: "subscribe, log the error, go on". */
export const eachGuarded = <T>(
  values$: Observable<T>,
  what: GuardedWhat<T>,
  logger: Logger,
  work: (value: T) => unknown,
): Subscription => values$.pipe(mergeMap(guarded(what, logger, work))).subscribe();
