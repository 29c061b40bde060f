import type { Logger } from '../../kernel/index.js';
import { LONGEST_WAIT_MS } from '../../kernel/index.js';
import type { PanelFailure } from '../panel-result.js';
import type { RateLimitObservation } from './read-rate-limit-headers.js';

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
