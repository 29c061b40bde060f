import { ERROR_CATALOGUE, type ErrorCode } from '../../shared/contract/index.js';
import type { Redact } from '../kernel/index.js';

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
  /** The panel's own answer with `ok: true` that does not match the contract where the bridge needs it. */
  | 'invalid_response'
  /**
   * An answer that is not the panel's own (a proxy's HTML page, an empty body, JSON without a boolean `ok`), with an
   * error status below 500 other than 429: it says nothing about the request, and is tried again like an outage.
   */
  | 'unreadable'
  /** A 2xx answer whose duty state contradicts the call (another department or rank): the panel did not do it. */
  | 'contradicted'
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
  /**
   * The body was not the panel's own answer (no JSON object with a boolean `ok`): something in front of it answered,
   * whatever the status. `kind` says how the bridge treats it; this says what answered.
   */
  notThePanels?: true;
}

export type PanelResult<T> = { ok: true; value: T; status: number } | { ok: false; failure: PanelFailure };

/** Failures that say nothing about the request itself: the same call may succeed later. */
export const isTransient = (failure: PanelFailure): boolean =>
  ['rate_limited', 'server_error', 'timeout', 'network', 'unavailable', 'unreadable'].includes(failure.kind);

/**
 * Whether the panel itself said it has no such account: its own 404 (the spec's "user not found"), unless its code
 * says the route is what it does not know. Only then is a player not registered.
 */
export const saysAccountUnknown = (failure: PanelFailure): boolean =>
  failure.kind === 'not_found' && failure.code !== 'not_found';

// Codes about the route or the access rather than the call: a fixed base URL or token lets the same call through.
const NOT_ABOUT_THE_CALL: ReadonlySet<string> = new Set<ErrorCode>([
  'not_found',
  'unauthorized',
  'rate_limited',
  'internal_error',
  'service_unavailable',
]);

/**
 * Whether the panel itself refused this very call, so sending it again cannot help: a contract error code about the
 * call, answered with the status the contract gives that code. A proxy's HTML 404, a 200 with `ok: false`, an
 * unknown route or a refused token are not: they may pass once the panel or the configuration is fixed.
 */
export function isRefusalOfTheCall(failure: PanelFailure): boolean {
  // The panel answered this very call, and with something else: sending it again asks the same question.
  if (failure.kind === 'contradicted') return true;
  const { code, status } = failure;
  if (code === undefined || NOT_ABOUT_THE_CALL.has(code) || !Object.hasOwn(ERROR_CATALOGUE, code)) return false;
  return ERROR_CATALOGUE[code as ErrorCode].status === status;
}

/** What came back, as far as the bridge read it: the body as text (undefined: larger than a panel answer can be). */
export interface AnswerSeen {
  status: number;
  contentType: string | null;
  text: string | undefined;
  /** The body parsed, when it is JSON. */
  json?: unknown;
}

const TITLE = /<title[^>]*>([^<]*)<\/title>/i;

const quoted = (text: string, redact: Redact) => JSON.stringify(redact(text.trim()).slice(0, 60));

/**
 * An answer that is not the panel's own, in the owner's words: "an HTML 404 page ("404 Not Found")", "an empty 404
 * answer", "a 404 answer that is not JSON (text/plain): "…"", "a 404 answer of JSON without a boolean `ok`". What
 * was seen points at the cause: a proxy's page at a wrong `BRIDGE_API_BASE`, a panel being deployed.
 */
export function describeUnreadable({ status, contentType, text, json }: AnswerSeen, redact: Redact): string {
  if (text === undefined) return `a ${status} answer larger than a panel answer can be`;
  if (text.trim() === '') return `an empty ${status} answer`;
  if (json !== undefined) return `a ${status} answer of JSON without a boolean \`ok\``;
  const type = contentType ?? 'no content type';
  if (/html/i.test(type) || /^\s*</.test(text)) {
    const title = TITLE.exec(text)?.[1];
    return `an HTML ${status} page${title ? ` (${quoted(title, redact)})` : ''}`;
  }
  // Masked before the cut: a cut could leave a piece of the token too short to be recognised afterwards.
  return `a ${status} answer that is not JSON (${type}): ${quoted(text, redact)}`;
}
