import { catchError, defer, EMPTY, from, ignoreElements, mergeMap, type Observable, type Subscription } from 'rxjs';
import type { Logger } from '../log/logger.js';

/** What failed, for the log line `<what> failed: <error>`: fixed, or named after the value it was handling. */
export type GuardedWhat<T> = string | ((value: T) => string);

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';

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
