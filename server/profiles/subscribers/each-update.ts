import { catchError, defer, EMPTY, mergeMap, type Observable, type Subscription } from 'rxjs';
import type { Logger } from '../../kernel/index.js';

/**
 * Subscribes `effect` to `updates$`. An effect that throws is logged and skips that update only: one broken push or
 * write never ends the subscriber, and never reaches the code that emitted the update.
 */
export function eachUpdate<T>(
  updates$: Observable<T>,
  what: string,
  logger: Logger,
  effect: (update: T) => void,
): Subscription {
  return updates$
    .pipe(
      mergeMap((update) =>
        defer(() => {
          effect(update);
          return EMPTY;
        }).pipe(
          catchError((error: unknown) => {
            logger.error(`${what} failed: ${String(error)}`);
            return EMPTY;
          }),
        ),
      ),
    )
    .subscribe();
}
