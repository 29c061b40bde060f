import { LONGEST_WAIT_MS } from '../kernel/index.js';
import type { RateLimitObservation } from './rate-limit-headers.js';

export interface RateLimitPolicy {
  /** Requests per window. */
  limit: number;
  windowMs: number;
}

export interface RateBudgetOptions {
  now: () => number;
  /** config.lua's limit: what the budget assumes until the panel's headers say otherwise. */
  fallback: RateLimitPolicy;
  /**
   * A window the bridge has to guess (no headers yet, or the last one ended) is assumed to last this much longer than
   * the policy says: the panel opens its window when our first request arrives, a little after we sent it.
   */
  marginMs?: number;
  /** Told once per change when the panel's headers contradict config.lua. */
  onPolicyLearned?: (learned: RateLimitPolicy, configured: RateLimitPolicy) => void;
}

/** How a request may leave: duty calls may use every request left; everything else is spread over the window. */
export type SendPace = 'immediate' | 'paced';

export interface BudgetSnapshot {
  limit: number;
  windowMs: number;
  /** Where the limit comes from: the panel's headers, or config.lua when the panel sent none. */
  limitSource: 'panel' | 'config';
  remaining: number;
  /** When the current window ends (epoch ms of the injected clock); undefined when no window is open. */
  resetAt: number | undefined;
  /** True when the window's end comes from the panel's headers, false when the bridge assumes it. */
  resetKnown: boolean;
  /** Set after a 429: nothing is sent before this time. */
  blockedUntil: number | undefined;
}

// Two reset readings of one window differ by the rounding to whole seconds and the answer's latency; a reading
// further away than this starts a new window.
const SAME_WINDOW_TOLERANCE_MS = 1_500;

/**
 * The panel's request budget as the bridge knows it: the limit and window (from the headers, else config.lua), the
 * requests left in the current window and when it resets. Every request takes one before it leaves, so requests in
 * flight are already counted; each answer's headers correct the estimate. Answers can arrive out of order: only an
 * answer to a later request than the last one applied can move the estimate.
 */
export class RateBudget {
  private policy: RateLimitPolicy;
  private limitSource: 'panel' | 'config' = 'config';
  private remaining: number;
  private resetAt: number | undefined;
  private resetKnown = false;
  private blockedUntil: number | undefined;
  /** When the next paced request would be due on the even schedule (the cell's theoretical arrival time). */
  private arrivalAt: number | undefined;
  /** Number of requests taken so far; a request's ticket is its position in this sequence. */
  private taken = 0;
  private lastApplied = 0;
  private answered = false;
  private readonly marginMs: number;
  /** The part of what is left that paced requests may use: 1 alone, 1/n while n servers share it without Redis. */
  private share = 1;

  constructor(private readonly options: RateBudgetOptions) {
    this.policy = { ...options.fallback };
    this.remaining = options.fallback.limit;
    this.marginMs = options.marginMs ?? 1_000;
  }

  /**
   * Several servers spend this budget and cannot agree through Redis (it is gone): paced requests use only this part
   * of what the panel says is left, so together they spend it over the window; duty calls may still use anything.
   */
  setShare(share: number): void {
    this.share = Math.min(1, Math.max(0.01, share));
  }

  /** Whether the panel has answered yet: until it has, nothing says config.lua's limit is the panel's. */
  get hasAnswered(): boolean {
    return this.answered;
  }

  /** The time one request is worth when the window is spread evenly: a "budget slot". */
  get slotMs(): number {
    return this.policy.windowMs / this.policy.limit;
  }

  /**
   * The earliest time a request of this pace may leave. Duty calls may take any request left. The rest is spread
   * evenly over what is left of the window (a rate-limited cell: each paced request moves a theoretical arrival time
   * one interval on), with a small burst allowed when the bridge has been quiet: a few players joining at once are
   * not made to queue, a storm is spread, and whatever a duty call takes widens the later intervals, so the window
   * always keeps requests for the duty calls to come.
   */
  nextSendAt(pace: SendPace): number {
    const now = this.options.now();
    this.roll(now);
    if (this.blockedUntil !== undefined) return this.blockedUntil;
    if (this.remaining < 1) return this.resetAt ?? now;
    if (pace === 'immediate') return now;
    // The window's last request is kept for a duty call that may come in its final slot.
    if (this.pacedRemaining - this.dutyReserve < 1) return this.resetAt ?? now;
    if (this.arrivalAt === undefined) return now;
    // The burst allowance is counted in nominal slots, not in the current interval: intervals widen as the window
    // runs out, and an allowance that widened with them would release the rest of the window at once.
    return Math.max(now, this.arrivalAt - (this.burst - 1) * this.slotMs);
  }

  /** Counts a request that is about to leave and returns its ticket. */
  take(pace: SendPace): number {
    const now = this.options.now();
    this.roll(now);
    if (this.resetAt === undefined) {
      this.resetAt = now + this.policy.windowMs + this.marginMs;
      this.resetKnown = false;
    }
    if (pace === 'paced') this.arrivalAt = Math.max(this.arrivalAt ?? now, now) + this.intervalAt(now);
    this.remaining = Math.max(0, this.remaining - 1);
    this.taken += 1;
    return this.taken;
  }

  /** A few requests may leave at once when the bridge was quiet: a tenth of the limit, at least 5 (at most all). */
  private get burst(): number {
    const { limit } = this.policy;
    return Math.min(limit, Math.max(5, Math.ceil(limit / 10)));
  }

  /** Requests of each window only duty calls may use: one, unless the limit is tiny. */
  private get dutyReserve(): number {
    return this.policy.limit >= 20 ? 1 : 0;
  }

  /** The even spacing of what paced requests may use until the reset. */
  private intervalAt(now: number): number {
    const resetAt = this.resetAt ?? now + this.policy.windowMs + this.marginMs;
    return Math.max(0, resetAt - now) / Math.max(1, this.pacedRemaining - this.dutyReserve);
  }

  /** What paced requests may count on: this server's share of what is left. */
  private get pacedRemaining(): number {
    return this.share === 1 ? this.remaining : Math.floor(this.remaining * this.share);
  }

  /** What the answer to the request with this ticket said about the budget. */
  observe(ticket: number, observation: RateLimitObservation): void {
    const now = this.options.now();
    this.answered = true;
    this.learnPolicy(observation);
    if (ticket <= this.lastApplied || observation.remaining === undefined) return;
    this.lastApplied = ticket;
    // Requests sent after this one may already have been counted, or will be: assume the worse.
    const remaining = Math.min(this.policy.limit, Math.max(0, observation.remaining - (this.taken - ticket)));
    const reset = observation.resetInMs;
    if (reset === undefined) {
      // A count without a reset: believe the count, keep the window end the bridge assumed.
      this.resetAt ??= now + this.policy.windowMs + this.marginMs;
      this.remaining = remaining;
      return;
    }
    if (reset <= 0) {
      // A reset in the past (or none): the count belongs to a window the panel says is over, so it says nothing
      // about now. Treat the window as new and unknown; pacing keeps the next requests at the nominal rate, and the
      // next answer (or a 429's Retry-After) tells the truth.
      this.resetAt = now + this.policy.windowMs + this.marginMs;
      this.resetKnown = false;
      this.remaining = Math.max(0, this.policy.limit - (this.taken - ticket));
      return;
    }
    // Measured from when the answer arrived, so the estimate is never earlier than the panel's real reset.
    const resetAt = now + reset;
    const sameWindow =
      this.resetKnown && this.resetAt !== undefined && Math.abs(resetAt - this.resetAt) <= SAME_WINDOW_TOLERANCE_MS;
    this.resetAt = sameWindow && this.resetAt !== undefined ? Math.min(this.resetAt, resetAt) : resetAt;
    this.resetKnown = true;
    this.remaining = remaining;
  }

  /** A 429 despite the estimate: nothing leaves until the panel says the window is over. */
  refused(ticket: number, observation: RateLimitObservation): void {
    const now = this.options.now();
    this.observe(ticket, observation);
    const untilReset = this.resetAt !== undefined && this.resetKnown ? this.resetAt - now : undefined;
    // Retry-After wins; never less than a slot, so a panel that says "0" is not hammered, and never more than the
    // longest wait (a learned window of an hour must not park every request for an hour either).
    const waitMs = Math.min(
      LONGEST_WAIT_MS,
      Math.max(this.slotMs, observation.retryAfterMs ?? untilReset ?? this.policy.windowMs),
    );
    this.blockedUntil = Math.max(this.blockedUntil ?? 0, now + waitMs);
    this.remaining = 0;
    this.resetAt = this.blockedUntil;
    this.resetKnown = true;
  }

  snapshot(): BudgetSnapshot {
    this.roll(this.options.now());
    return {
      limit: this.policy.limit,
      windowMs: this.policy.windowMs,
      limitSource: this.limitSource,
      remaining: this.remaining,
      resetAt: this.resetAt,
      resetKnown: this.resetKnown,
      blockedUntil: this.blockedUntil,
    };
  }

  /** Past the reset, a new window starts with the whole limit; its end is known once a request opened it. */
  private roll(now: number): void {
    if (this.blockedUntil !== undefined && now >= this.blockedUntil) this.blockedUntil = undefined;
    if (this.resetAt !== undefined && now >= this.resetAt && this.blockedUntil === undefined) {
      this.resetAt = undefined;
      this.resetKnown = false;
      this.remaining = this.policy.limit;
    }
  }

  /** The panel's headers are the truth about its limit; config.lua is only the guess used until they come. */
  private learnPolicy(observation: RateLimitObservation): void {
    const limit = observation.limit !== undefined && observation.limit >= 1 ? Math.floor(observation.limit) : undefined;
    const windowMs = observation.windowMs !== undefined && observation.windowMs >= 1 ? observation.windowMs : undefined;
    if (limit === undefined && windowMs === undefined) return;
    const next = { limit: limit ?? this.policy.limit, windowMs: windowMs ?? this.policy.windowMs };
    if (next.limit === this.policy.limit && next.windowMs === this.policy.windowMs) {
      this.limitSource = 'panel';
      return;
    }
    if (next.limit < this.policy.limit) this.remaining = Math.min(this.remaining, next.limit);
    this.policy = next;
    this.limitSource = 'panel';
    this.options.onPolicyLearned?.(next, this.options.fallback);
  }
}
