import { from, map, NEVER, type Observable, race, take } from 'rxjs';
import type { DutyAnswer, DutyOffBody, DutyOnBody } from '../../shared/contract/index.js';
import type { PanelFailure } from '../panel/index.js';

// A duty call to the panel: what it is, the fence it goes under in a community, and how waiting for its answer ends.

/**
 * What must still hold in the community's Redis before a call is sent (BRIDGE_REDIS_URL; without it nothing is
 * checked): the claim of a shift still owns the account (this server's shift, or with `server` a lapsed server's that a
 * peer ends), or, `unclaimed`, no live claim exists (an `off` for an `on` that was never claimed; with `server`, a
 * lapsed server's `on` that a peer ends, sent only while that server is still gone). A call without a fence is the
 * `on` of a new duty, claimed once the panel took it.
 */
export type CallFence = { shift: string; server?: string } | { unclaimed: true; server?: string };

/** A duty call to the panel: what the duty rules decide and the outbox delivers. */
export type DutyCall = ({ action: 'on'; body: DutyOnBody } | { action: 'off'; body: DutyOffBody }) & {
  fence?: CallFence;
};

export type OnCall = Extract<DutyCall, { action: 'on' }>;

export type OffCall = Extract<DutyCall, { action: 'off' }>;

/** A duty call as the outbox keeps it in KVP until the panel has taken it. */
export interface OutboxRecord {
  id: number;
  call: DutyCall;
  createdAt: number;
  /**
   * An `on` the player already is on duty for in game (degraded mode: the panel was unreachable). It is a duty the
   * game had, so a restart delivers it followed by the `off` that ends it, instead of replacing it with that `off`.
   */
  appliedInGame?: true;
}

/** How a call's way to the panel ended. */
export type DeliveryResult =
  | { kind: 'delivered'; response: DutyAnswer }
  | { kind: 'refused'; failure: PanelFailure }
  | { kind: 'withdrawn' };

/** A call handed to the outbox: its id (to withdraw it or mark it applied) and how its delivery ends. */
export interface SentCall {
  id: number;
  result: Promise<DeliveryResult>;
}

/**
 * The community's fence in front of the outbox (server/community/outbox-fence-gate.ts, in dist/redis.cjs): right before each attempt of
 * a fenced call, Redis confirms that its claim still owns the account; a call it cannot confirm is held.
 */
export interface FenceGate {
  /** How long a confirmed attempt may wait for its turn before it must be confirmed again (ms). */
  readonly sendWithinMs: number;
  /** The fence a call goes under, or none (the `on` of a new duty: its claim follows). */
  fenceOf(call: DutyCall, fromLastRun: boolean): CallFence | undefined;
  /** Right before an attempt: `go`, `stale` (not this server's to send: dropped), or `held` (Redis cannot confirm). */
  confirm(record: OutboxRecord, fence: CallFence, fromLastRun: boolean): Promise<'go' | 'stale' | 'held'>;
  /** A fenced call the panel took. */
  delivered(record: OutboxRecord, fence: CallFence, fromLastRun: boolean): void;
  /** Right before an `on` of a new duty leaves: announced, so a peer can end it if this server dies unclaimed. */
  intend(call: DutyCall): Promise<void>;
  /** An `on` of a new duty leaves for the panel. */
  sending(chatId: string): void;
  /** Redis answers again, or the owner released what was held: held calls try again at once. */
  readonly woken$: Observable<unknown>;
  /** A call that left the outbox: no longer held. */
  forget(id: number): void;
  /** `bridge release`: every held call goes at once, without a confirmation; how many. */
  release(): number;
}

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
