import { catchError, defer, EMPTY, from, isObservable, Subject, type Subscription } from 'rxjs';
import { concatMapPerKey } from './concat-map-per-key.js';

/**
 * A task in a lane: done when it returns, or, when it returns an Observable or a Promise (of any realm), once that
 * completes or settles.
 */
export type LaneTask = () => unknown;

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
