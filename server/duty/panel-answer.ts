import { from, map, NEVER, type Observable, race, take } from 'rxjs';
import type { DeliveryResult } from './duty-call.js';

/**
 * What ends a player's wait for the panel to accept their `on`: its delivery (or refusal, or withdrawal), the wait
 * running out, the player leaving, or (degraded mode `queue`) the panel becoming unreachable meanwhile.
 */
export type PanelAnswer = DeliveryResult | { kind: 'timed_out' } | { kind: 'left' } | { kind: 'panel_down' };

export interface PanelAnswerRacers {
  /** Emits once the player has waited long enough (on the monotonic clock). */
  timeout$: Observable<unknown>;
  /** Emits when the player leaves. */
  left$: Observable<unknown>;
  /** Emits when the panel stops answering; absent when that does not end the wait. */
  unreachable$?: Observable<unknown>;
}

/** The first of the answers to arrive; the others are unsubscribed, so nothing of the wait is left behind. */
export function panelAnswer(delivery: Promise<DeliveryResult>, racers: PanelAnswerRacers): Observable<PanelAnswer> {
  const answer = (kind: 'timed_out' | 'left' | 'panel_down') => map((): PanelAnswer => ({ kind }));
  return race(
    from(delivery),
    racers.timeout$.pipe(answer('timed_out')),
    racers.left$.pipe(answer('left')),
    (racers.unreachable$ ?? NEVER).pipe(answer('panel_down')),
  ).pipe(take(1));
}
