import type { Subscription } from 'rxjs';
import { type Clock, type Logger, WakeTimer } from '../kernel/index.js';
import type { PanelExchange } from './panel-client.js';
import { type CircuitBreaker, type LatencyStats, reachabilityOf } from './panel-health.js';
import type { PanelResult } from './panel-result.js';
import type { BudgetSnapshot, RateBudget, SendPace } from './rate-budget.js';
import { CappedWaits, type RateLimitObservation, readRateLimitHeaders } from './rate-limit-headers.js';
import { classRank, FairQueue, paceOf, REQUEST_CLASSES, type RequestClass } from './request-queues.js';

export interface ScheduledRequest<T> {
  requestClass: RequestClass;
  /** Whose request it is: players take turns within a class. */
  player: string;
  /** Requests with the same key share one panel request: asking again while one waits or is in flight joins it. */
  singleFlight?: string;
  /**
   * The answer must come from a request sent after this call (a forced refresh after a role change): it may join a
   * shared request still waiting, never one already on its way.
   */
  fresh?: boolean;
  /** Aborting takes the request out of the queue if it has not left yet; it then resolves as `cancelled`. */
  signal?: AbortSignal;
  /** Called the moment the request leaves. */
  onSent?: () => void;
  /** The circuit breaker's probe: the only request sent while the panel is known to be unreachable. */
  probe?: boolean;
  send(): Promise<PanelExchange<T>>;
}

export interface RequestSchedulerOptions {
  /** `now` (monotonic) for every wait; `wallNow` only to read the panel's timestamp headers when it sends no `Date`. */
  clock: Clock & { wallNow(): number };
  budget: RateBudget;
  /** The community's budget (BRIDGE_REDIS_URL): while it is active it decides instead of `budget`. */
  shared?: SharedBudget;
  breaker: CircuitBreaker;
  latency: LatencyStats;
  logger: Logger;
  /** Requests in flight at once; more wait (a hanging panel must not collect hundreds of open requests). */
  maxInFlight?: number;
}

export interface SchedulerStats {
  queued: Record<RequestClass, number>;
  inFlight: number;
  sent: number;
  /** 429 answers: each means the budget estimate was wrong; the request was queued again, not dropped. */
  rateLimited: number;
}

interface Entry {
  request: ScheduledRequest<unknown>;
  requestClass: RequestClass;
  state: 'queued' | 'sent' | 'done';
  promise: Promise<PanelResult<unknown>>;
  settle(result: PanelResult<unknown>): void;
}

const UNAVAILABLE: PanelResult<never> = {
  ok: false,
  failure: { kind: 'unavailable', message: 'the panel is unreachable; the bridge retries once it answers again' },
};
const CANCELLED: PanelResult<never> = {
  ok: false,
  failure: { kind: 'cancelled', message: 'withdrawn before it was sent' },
};

/**
 * The one way to the panel. Requests wait in priority classes (duty, waiting, join, refreshes), take turns between
 * players within a class, and share one request per single-flight key. One leaves only when the rate budget says
 * the panel will accept it; a 429 anyway blocks everything until the panel's reset and puts the request back at the
 * head of its class. While the circuit is open, requests are answered `unavailable` at once.
 */
export class RequestScheduler {
  private readonly queues = new Map<RequestClass, FairQueue<Entry>>(
    REQUEST_CLASSES.map((requestClass) => [requestClass, new FairQueue<Entry>((entry) => entry.request.player)]),
  );
  private readonly shared = new Map<string, Entry>();
  private readonly timer: WakeTimer;
  private readonly subscription: Subscription;
  private readonly cappedWaits: CappedWaits;
  private inFlight = 0;
  /** A request of the community's budget is on its way to Redis: one at a time, the answer pumps again. */
  private asking = false;
  private sent = 0;
  private rateLimited = 0;
  private stopped = false;

  constructor(private readonly options: RequestSchedulerOptions) {
    this.timer = new WakeTimer(options.clock, () => this.pump());
    this.cappedWaits = new CappedWaits(options.logger);
    // Whatever waits when the panel goes away is answered now rather than after a timeout each.
    this.subscription = options.breaker.unreachable$.subscribe(() => this.failQueued());
  }

  submit<T>(request: ScheduledRequest<T>): Promise<PanelResult<T>> {
    if (this.stopped) return new Promise(() => {});
    const key = request.singleFlight;
    const shared = key === undefined ? undefined : this.shared.get(key);
    const existing = request.fresh && shared?.state !== 'queued' ? undefined : shared;
    if (existing) {
      this.promote(existing, request.requestClass);
      return existing.promise as Promise<PanelResult<T>>;
    }
    if (this.options.breaker.isOpen && !request.probe) return Promise.resolve(UNAVAILABLE);
    if (request.signal?.aborted) return Promise.resolve(CANCELLED);

    let settle: (result: PanelResult<unknown>) => void = () => {};
    const promise = new Promise<PanelResult<unknown>>((resolve) => {
      settle = resolve;
    });
    const entry: Entry = {
      request: request as ScheduledRequest<unknown>,
      requestClass: request.requestClass,
      state: 'queued',
      promise,
      settle: (result) => {
        if (entry.state === 'done') return;
        entry.state = 'done';
        // A duty call's signal lives across all its attempts: each attempt's listener goes when the attempt ends.
        request.signal?.removeEventListener('abort', onAbort);
        if (key !== undefined && this.shared.get(key) === entry) this.shared.delete(key);
        settle(result);
      },
    };
    const onAbort = () => this.cancel(entry);
    if (key !== undefined) this.shared.set(key, entry);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    this.queueOf(entry.requestClass).push(entry);
    this.pump();
    return promise as Promise<PanelResult<T>>;
  }

  stats(): SchedulerStats {
    const queued = Object.fromEntries(
      REQUEST_CLASSES.map((requestClass) => [requestClass, this.queueOf(requestClass).size]),
    ) as Record<RequestClass, number>;
    return { queued, inFlight: this.inFlight, sent: this.sent, rateLimited: this.rateLimited };
  }

  /** A stopped resource sends nothing more; what waited never resolves (its KVP records outlive it). */
  stop(): void {
    this.stopped = true;
    this.timer.stop();
    this.subscription.unsubscribe();
  }

  private queueOf(requestClass: RequestClass): FairQueue<Entry> {
    return this.queues.get(requestClass) as FairQueue<Entry>;
  }

  /** A caller with a higher class joined a request that is still waiting: it moves up (never down). */
  private promote(entry: Entry, requestClass: RequestClass): void {
    if (entry.state !== 'queued' || classRank(requestClass) >= classRank(entry.requestClass)) return;
    this.queueOf(entry.requestClass).remove(entry);
    entry.requestClass = requestClass;
    this.queueOf(requestClass).push(entry);
    this.pump();
  }

  private cancel(entry: Entry): void {
    if (entry.state !== 'queued') return;
    this.queueOf(entry.requestClass).remove(entry);
    entry.settle(CANCELLED);
  }

  private failQueued(): void {
    for (const requestClass of REQUEST_CLASSES) {
      const queue = this.queueOf(requestClass);
      for (const entry of queue.drain()) {
        if (entry.request.probe) queue.push(entry);
        else entry.settle(UNAVAILABLE);
      }
    }
  }

  private next(): Entry | undefined {
    for (const requestClass of REQUEST_CLASSES) {
      const entry = this.queueOf(requestClass).peek();
      if (entry) return entry;
    }
    return undefined;
  }

  private pump(): void {
    const maxInFlight = this.options.maxInFlight ?? 32;
    while (!this.stopped && this.inFlight < maxInFlight) {
      // Learn before spending: one request at a time until the panel has answered once and its headers said what
      // its limit really is (config.lua's may be wrong). The answer pumps again.
      if (!this.options.budget.hasAnswered && this.inFlight > 0) return;
      const entry = this.next();
      if (!entry) return;
      const shared = this.options.shared;
      if (shared?.active) {
        this.askCommunity(entry.requestClass);
        return;
      }
      // A community without its Redis: this server's share of what the panel says is left.
      if (shared) this.options.budget.setShare(1 / shared.servers);
      const pace = paceOf(entry.requestClass);
      // Classes below are paced too, so when the head cannot go yet nothing behind it can either.
      const at = this.options.budget.nextSendAt(pace);
      const now = this.options.clock.now();
      if (at > now) {
        this.timer.wakeAt(at);
        return;
      }
      this.queueOf(entry.requestClass).shift();
      this.dispatch(entry, pace);
    }
  }

  /**
   * Asks the community's budget for a request of the class at the head; granted, the head of the queues leaves at
   * once (a higher class may have arrived meanwhile: it may use what a lower one was given). Never waits for Redis:
   * a failed call leaves the decision to this server's own budget.
   */
  private askCommunity(requestClass: RequestClass): void {
    const shared = this.options.shared;
    if (this.asking || !shared) return;
    this.asking = true;
    void shared.acquire(requestClass, this.options.budget.snapshot()).then((grant) => {
      this.asking = false;
      if (this.stopped) return;
      if (grant?.granted === false) {
        // A higher class came while Redis answered about a lower one (a duty call behind a player waiting for the
        // window's last slot): the wait was for that class, not this one, so it is asked about at once.
        const head = this.next();
        if (head && classRank(head.requestClass) < classRank(requestClass)) this.pump();
        else this.timer.wakeAt(this.options.clock.now() + grant.retryInMs);
        return;
      }
      const entry = grant ? this.next() : undefined;
      if (entry && grant) {
        this.queueOf(entry.requestClass).shift();
        this.dispatch(entry, paceOf(entry.requestClass), grant.ticket);
      }
      this.pump();
    });
  }

  private dispatch(entry: Entry, pace: SendPace, sharedTicket?: number): void {
    entry.state = 'sent';
    // This server's budget counts every request too: it keeps learning, ready for when Redis goes.
    const ticket = this.options.budget.take(pace);
    this.inFlight += 1;
    this.sent += 1;
    entry.request.onSent?.();
    entry.request
      .send()
      .catch(
        (error: unknown): PanelExchange<unknown> => ({
          result: { ok: false, failure: { kind: 'network', message: String(error) } },
          response: { method: 'GET', path: '', status: undefined, latencyMs: 0, headers: undefined },
        }),
      )
      .then((exchange) => {
        this.inFlight -= 1;
        if (!this.stopped) this.learn(entry, ticket, exchange, sharedTicket);
        this.pump();
      });
  }

  private learn(
    entry: Entry,
    ticket: number,
    { result, response }: PanelExchange<unknown>,
    sharedTicket: number | undefined,
  ): void {
    const { budget, shared, breaker, latency, clock, logger } = this.options;
    const now = clock.now();
    if (response.status !== undefined) latency.record(response.latencyMs, now);
    // No answer at all (network error, timeout) says nothing about the budget.
    const { headers } = response;
    const observation = headers
      ? this.cappedWaits.observation(readRateLimitHeaders(headers, clock.wallNow()), headers)
      : undefined;
    breaker.record(reachabilityOf(response, result), result.ok ? undefined : result.failure.message);
    if (response.status === 429) {
      budget.refused(ticket, observation ?? { form: 'none' });
      // Every server of the community waits too.
      shared?.refused(sharedTicket ?? -1, observation ?? { form: 'none' });
      this.rateLimited += 1;
      const { blockedUntil } = budget.snapshot();
      logger.warn(
        `the panel answered 429 to ${response.method} ${response.path} despite the budget; nothing is sent for ${Math.round(((blockedUntil ?? now) - now) / 1000)} s and the request is queued again`,
      );
      // Never dropped: back to the head of its class, to leave first when the window opens.
      entry.state = 'queued';
      this.queueOf(entry.requestClass).unshift(entry);
      return;
    }
    if (observation) budget.observe(ticket, observation);
    // Every granted request is answered to the community's budget, headers or not: it is no longer in flight.
    if (sharedTicket !== undefined) shared?.observe(sharedTicket, observation ?? { form: 'none' });
    entry.settle(
      !result.ok && headers ? { ok: false, failure: this.cappedWaits.failure(result.failure, headers) } : result,
    );
  }
}

// The shared budget as dist/server.js's scheduler sees it (types only; the implementation is in dist/redis.cjs).

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
