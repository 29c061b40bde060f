// What the panel's answers say about its rate limit and about waiting: every header form read, every wait capped.
import { type BareItem, type Item, type List, parseDictionary, parseList, Token } from 'structured-headers';
import { LONGEST_WAIT_MS, type Logger } from '../kernel/index.js';
import type { PanelFailure } from './panel-result.js';

/** Which header set an answer used; `none` when it carried no rate-limit headers at all. */
export type RateLimitHeaderForm = 'draft-8' | 'draft-7' | 'draft-6' | 'legacy' | 'none';

/** What one answer says about the panel's budget. Every field is optional: panels send different subsets. */
export interface RateLimitObservation {
  form: RateLimitHeaderForm;
  /** Requests allowed per window. */
  limit?: number;
  /** Length of the window, from a policy's `w=`. */
  windowMs?: number;
  /** Requests left in the window when the panel counted this one. */
  remaining?: number;
  /** Milliseconds from the answer until the window resets; zero or negative when the reset lies in the past. */
  resetInMs?: number;
  /** `Retry-After`, on a 429 or a 503. */
  retryAfterMs?: number;
}

// RFC 8941 parsing is strict: a header that does not parse is ignored as a whole, as if the panel had not sent it,
// and a parameter that is not a non-negative number is ignored on its own.
function listOf(value: string | null): Item[] {
  if (!value) return [];
  let list: List;
  try {
    list = parseList(value);
  } catch {
    return [];
  }
  // Inner lists `(a b)` carry no limit in any draft.
  return list.filter((member): member is Item => !Array.isArray(member[0]));
}

function dictionaryOf(value: string): Map<string, BareItem> {
  const entries = new Map<string, BareItem>();
  try {
    for (const [key, member] of parseDictionary(value)) if (!Array.isArray(member[0])) entries.set(key, member[0]);
  } catch {
    // Not a dictionary: not draft 7.
  }
  return entries;
}

const count = (value: BareItem | undefined): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

const seconds = (value: BareItem | undefined) => {
  const number = count(value);
  return number === undefined ? undefined : number * 1000;
};

/** A draft-8 limit's name: `"200-in-1min"` or the token `minute`. */
const nameOf = ([item]: Item): string | undefined =>
  typeof item === 'string' ? item : item instanceof Token ? item.toString() : undefined;

/** Of several draft-8 limits in one header, the one closest to running out is the one that binds. */
function bindingMember(members: Item[]): Item | undefined {
  let binding: Item | undefined;
  for (const member of members) {
    const remaining = count(member[1].get('r'));
    if (remaining === undefined) continue;
    const best = count(binding?.[1].get('r'));
    if (best === undefined || remaining < best) binding = member;
  }
  return binding;
}

/** Draft 8: `RateLimit: "name"; r=199; t=60` with `RateLimit-Policy: "name"; q=200; w=60`. */
function readDraft8(rateLimit: string, policy: string | null): Omit<RateLimitObservation, 'form'> | undefined {
  const member = bindingMember(listOf(rateLimit));
  if (!member) return undefined;
  const name = nameOf(member);
  const named = name === undefined ? undefined : listOf(policy).find((entry) => nameOf(entry) === name);
  return definedOnly({
    remaining: count(member[1].get('r')),
    resetInMs: seconds(member[1].get('t')),
    limit: count(named?.[1].get('q')),
    windowMs: seconds(named?.[1].get('w')),
  });
}

/** Draft 7: `RateLimit: limit=200, remaining=199, reset=60`. */
function readDraft7(rateLimit: string): Omit<RateLimitObservation, 'form'> | undefined {
  const fields = dictionaryOf(rateLimit);
  if (!fields.has('remaining') && !fields.has('limit')) return undefined;
  return definedOnly({
    limit: count(fields.get('limit')),
    remaining: count(fields.get('remaining')),
    resetInMs: seconds(fields.get('reset')),
  });
}

/** Drafts 6 and 7: `RateLimit-Policy: 200;w=60` (possibly several: the one matching the limit). */
function policyWindowMs(policy: string | null, limit: number | undefined): number | undefined {
  const members = listOf(policy);
  const matching = members.find(([item]) => count(item) === limit) ?? members[0];
  return seconds(matching?.[1].get('w'));
}

const policyLimit = (policy: string | null): number | undefined => count(listOf(policy)[0]?.[0]);

// A loop rather than entries/filter/fromEntries: it runs three times for every panel answer.
const definedOnly = <T extends object>(value: T): T => {
  const kept: Partial<T> = {};
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] !== undefined) kept[key] = value[key];
  return kept as T;
};

/**
 * Reads every rate-limit header form a panel may send (express-rate-limit's drafts 6, 7 and 8, the legacy
 * `X-RateLimit-*` and `Retry-After`). The standard forms win over the legacy one when both are present; a value one
 * form lacks is taken from another.
 */
export function readRateLimitHeaders(headers: Headers, wallNowMs: number): RateLimitObservation {
  // Timestamps become delays here, against the panel's own clock when it sent one; the delays are then counted on
  // the monotonic clock.
  const now = panelNow(headers.get('date'), wallNowMs);
  const policy = headers.get('ratelimit-policy');
  const combined = headers.get('ratelimit');

  const legacy = definedOnly({
    limit: nonNegativeNumber(headers.get('x-ratelimit-limit')),
    remaining: nonNegativeNumber(headers.get('x-ratelimit-remaining')),
    resetInMs: resetDelayMs(headers.get('x-ratelimit-reset'), now),
  });
  const draft6 = definedOnly({
    limit: nonNegativeNumber(headers.get('ratelimit-limit')) ?? policyLimit(policy),
    remaining: nonNegativeNumber(headers.get('ratelimit-remaining')),
    resetInMs: resetDelayMs(headers.get('ratelimit-reset'), now),
  });

  let form: RateLimitHeaderForm = 'none';
  let standard: Omit<RateLimitObservation, 'form'> = {};
  const draft8 = combined ? readDraft8(combined, policy) : undefined;
  const draft7 = combined && !draft8 ? readDraft7(combined) : undefined;
  if (draft8) [form, standard] = ['draft-8', draft8];
  else if (draft7) [form, standard] = ['draft-7', { ...draft7, windowMs: policyWindowMs(policy, draft7.limit) }];
  else if (Object.keys(draft6).length > 0 && draft6.remaining !== undefined) {
    [form, standard] = ['draft-6', { ...draft6, windowMs: policyWindowMs(policy, draft6.limit) }];
  } else if (Object.keys(legacy).length > 0) {
    form = 'legacy';
  }

  const observation: RateLimitObservation = { form, ...legacy, ...definedOnly(standard) };
  const retryAfter = retryAfterMs(headers.get('retry-after'), now);
  if (retryAfter !== undefined) observation.retryAfterMs = retryAfter;
  return observation;
}

// ky's rule: a reset number is a timestamp only when it is clearly one, i.e. after 2024-01-01. A delta of that
// many seconds would be 54 years, so nothing real is mistaken either way; a fixed threshold also keeps working
// when the two clocks disagree.
const TIMESTAMP_THRESHOLD_MS = Date.UTC(2024, 0, 1);

/**
 * Milliseconds until a window resets, from a reset header's number: delta seconds (`RateLimit-Reset: 60`), epoch
 * seconds (`X-RateLimit-Reset: 1735689600`, express-rate-limit's legacy header) or epoch milliseconds. A timestamp
 * is compared with the panel's own `Date` header when there is one, so a skewed local clock does not matter.
 * Negative when the reset lies in the past.
 */
export function resetDelayMs(value: string | null, panelNowMs: number): number | undefined {
  const number = nonNegativeNumber(value);
  if (number === undefined) return undefined;
  if (number >= TIMESTAMP_THRESHOLD_MS) return number - panelNowMs; // epoch milliseconds
  if (number * 1000 >= TIMESTAMP_THRESHOLD_MS) return number * 1000 - panelNowMs; // epoch seconds
  return number * 1000;
}

/** `Retry-After`: delta seconds or an HTTP date (strict: a date must parse to a time, or the header is ignored). */
export function retryAfterMs(value: string | null, panelNowMs: number): number | undefined {
  if (value === null) return undefined;
  const seconds = nonNegativeNumber(value);
  if (seconds !== undefined) return seconds * 1000;
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - panelNowMs);
}

/** The panel's clock from its `Date` header (one-second resolution), or the local wall clock without one. */
export function panelNow(dateHeader: string | null, localWallNowMs: number): number {
  if (dateHeader === null) return localWallNowMs;
  const date = Date.parse(dateHeader);
  return Number.isNaN(date) ? localWallNowMs : date;
}

/**
 * A plain header's non-negative decimal number (`RateLimit-Remaining: 17`, `X-RateLimit-Reset: 1735689600`), or
 * undefined for anything else (`abc`, `-1`, `1e400`, ``). The legacy `X-RateLimit-*` headers are no RFC 8941
 * structured fields, so the single-number headers are all read as decimal text.
 */
export function nonNegativeNumber(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : undefined;
}

// The headers a reset time may come from, in the order the reader prefers them.
const RESET_HEADERS = ['RateLimit-Reset', 'RateLimit', 'X-RateLimit-Reset'] as const;

/**
 * Caps every wait an answer's headers ask for at LONGEST_WAIT_MS, so no header can park the scheduler or a duty
 * call. A capped header is told to the owner once per header name, with the value it had: it is the panel's (or a
 * proxy's) configuration, not something that changes from one answer to the next.
 */
export class CappedWaits {
  constructor(
    private readonly logger: Logger,
    private readonly capMs = LONGEST_WAIT_MS,
  ) {}

  observation(observation: RateLimitObservation, headers: Headers): RateLimitObservation {
    const capped = { ...observation };
    if (observation.retryAfterMs !== undefined && observation.retryAfterMs > this.capMs) {
      capped.retryAfterMs = this.capMs;
      this.tell('Retry-After', headers.get('retry-after'));
    }
    if (observation.resetInMs !== undefined && observation.resetInMs > this.capMs) {
      capped.resetInMs = this.capMs;
      const name = RESET_HEADERS.find((header) => headers.has(header)) ?? 'RateLimit-Reset';
      this.tell(name, headers.get(name));
    }
    // A count without a reset leaves the budget to assume the window's end from the policy's `w=`: a window of a day
    // would hold every request for the day once the count reaches 0, and spread the paced ones over it.
    const windowIsTheWait = observation.resetInMs === undefined && observation.remaining !== undefined;
    if (windowIsTheWait && observation.windowMs !== undefined && observation.windowMs > this.capMs) {
      capped.resetInMs = this.capMs;
      this.tell('RateLimit-Policy', headers.get('ratelimit-policy'));
    }
    return capped;
  }

  failure(failure: PanelFailure, headers: Headers): PanelFailure {
    if (failure.retryAfterMs === undefined || failure.retryAfterMs <= this.capMs) return failure;
    this.tell('Retry-After', headers.get('retry-after'));
    return { ...failure, retryAfterMs: this.capMs };
  }

  private tell(header: string, value: string | null): void {
    this.logger.once(
      `capped-wait:${header}`,
      'warn',
      `the panel asked for a longer wait than the bridge keeps anything waiting (${header}: ${value ?? '?'}); ` +
        `it waits at most ${this.capMs / 1000} s and then tries again`,
    );
  }
}
