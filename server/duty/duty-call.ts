import type { DutyAnswer, DutyOffBody, DutyOnBody } from '../../shared/contract/index.js';
import type { PanelFailure } from '../panel/panel-result.js';

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
