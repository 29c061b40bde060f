import { catchError, defer, EMPTY, ignoreElements, type Observable } from 'rxjs';
import type { Logger } from '../../kernel/index.js';

/**
 * A handler of one input as the inner stream of its `mergeMap`: a failure is logged and never ends the input's
 * stream, and players never wait for each other's handling.
 */
export const guarded =
  <T>(what: string, logger: Logger, work: (value: T) => Promise<unknown> | undefined) =>
  (value: T): Observable<never> =>
    defer(async () => {
      await work(value);
    }).pipe(
      catchError((error: unknown) => {
        logger.error(`${what} failed: ${String(error)}`);
        return EMPTY;
      }),
      ignoreElements(),
    );
