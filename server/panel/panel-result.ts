import type { ErrorCode } from '../../shared/contract/index.js';

/**
 * Why a panel call did not give a usable answer. `kind` is what the bridge acts on; `code` is the panel's own
 * error code when it sent one.
 */
export type PanelFailureKind =
  | 'unauthorized'
  | 'not_found'
  | 'rejected'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'network'
  | 'invalid_response'
  /** Not sent: the panel is unreachable (circuit open), so the bridge answers at once instead of waiting it out. */
  | 'unavailable'
  /** Not sent: the caller withdrew the request while it waited for its turn. */
  | 'cancelled';

export interface PanelFailure {
  kind: PanelFailureKind;
  message: string;
  status?: number;
  code?: ErrorCode | string;
  /** From Retry-After on a 429 or 503. */
  retryAfterMs?: number;
}

export type PanelResult<T> = { ok: true; value: T; status: number } | { ok: false; failure: PanelFailure };

/** Failures that say nothing about the request itself: the same call may succeed later. */
export const isTransient = (failure: PanelFailure): boolean =>
  ['rate_limited', 'server_error', 'timeout', 'network', 'unavailable'].includes(failure.kind);
