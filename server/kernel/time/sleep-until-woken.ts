import { map, type Observable, race, take } from 'rxjs';
import { abandonableWait } from './abandonable-wait.js';

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
