// The shared budget as dist/server.js's scheduler sees it (types only; the implementation is in dist/redis.cjs).
import type { BudgetSnapshot } from './rate-limit/rate-budget.js';
import type { RateLimitObservation } from './rate-limit-headers.js';
import type { RequestClass } from './scheduling/request-classes.js';

/** What the community's budget says to one request: it may leave now (with its place in the community's sequence), or not before `retryInMs`. */
export type BudgetGrant = { granted: true; ticket: number } | { granted: false; retryInMs: number };

/**
 * One panel budget for every server of the community, kept in Redis and changed only by atomic scripts. While it is
 * `active`, the scheduler asks it before each request instead of its own RateBudget (which keeps learning from the
 * answers, so it is ready the moment Redis goes).
 */
export interface SharedBudget {
  /** Redis answers and the last call did not fail: the community's budget decides. */
  readonly active: boolean;
  /**
   * How many servers asked the community's budget in the last minute (this one included), as last seen: while Redis
   * is gone each server takes only its share of what the panel says is left.
   */
  readonly servers: number;
  /** How much longer this server decides alone after Redis failed again and again; undefined when it does not. */
  readonly aloneForMs: number | undefined;
  /**
   * Takes one request of this class from the community's budget; undefined when Redis failed again and again
   * (decide locally). `local` is this server's own budget: where the community's starts when Redis has none (the
   * first server, or Redis restarted empty), and the panel's limit once this server has read it.
   */
  acquire(requestClass: RequestClass, local: BudgetSnapshot): Promise<BudgetGrant | undefined>;
  /**
   * What the answer to the request with this ticket said about the budget; every granted request is answered once
   * with observe or refused (an answer without headers with `{ form: 'none' }`), so it stops counting as in flight.
   */
  observe(ticket: number, observation: RateLimitObservation): void;
  /** A 429: every server of the community waits until the panel's Retry-After. */
  refused(ticket: number, observation: RateLimitObservation): void;
}
