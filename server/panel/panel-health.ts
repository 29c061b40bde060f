// What the bridge knows of the panel's health: whether it answers at all (the circuit breaker), and how fast.
import {
  BehaviorSubject,
  catchError,
  concatMap,
  defer,
  distinctUntilChanged,
  EMPTY,
  filter,
  firstValueFrom,
  map,
  type Observable,
  repeat,
  type Subscription,
  skip,
  switchMap,
} from 'rxjs';
import { abandonableWait, backoffMs, type Logger } from '../kernel/index.js';
import type { PanelResponseInfo } from './panel-client.js';
import type { PanelResult } from './panel-result.js';

/**
 * What one exchange says about the panel: its own answer below 500 means it is up, whatever the status. An answer
 * that is not its own (a proxy's 404 page) says it is not reached, like a 502.
 */
export type Reachability = 'reachable' | 'unreachable';

export const reachabilityOf = (response: PanelResponseInfo, result: PanelResult<unknown>): Reachability =>
  response.status !== undefined &&
  response.status < 500 &&
  !(result.ok === false && result.failure.kind === 'unreadable')
    ? 'reachable'
    : 'unreachable';

export interface CircuitBreakerOptions {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: Logger;
  /** Sends one cheap request; its answer reaches `record` through the scheduler like any other. */
  probe: () => Promise<unknown>;
  /** Consecutive network errors, timeouts or 5xx that open the circuit. */
  failureThreshold?: number;
  /** Delay before each probe while open: doubling from `baseMs` up to `maxMs`, with jitter. */
  probeBackoff?: { baseMs: number; maxMs: number };
}

/** Probes while open: 1 s, 2 s, 4 s ... up to 15 s apart (jittered), so a returning panel is noticed soon. */
export const PROBE_BACKOFF = { baseMs: 1_000, maxMs: 15_000 } as const;

/** What the breaker knows of the panel, as `circuit$` emits it on every change. */
export interface CircuitState {
  state: 'closed' | 'open';
  /** When the circuit opened (the panel stopped answering), while it is open. */
  openedAt: number | undefined;
  consecutiveFailures: number;
  lastFailure: string | undefined;
}

export interface CircuitSnapshot extends CircuitState {
  nextProbeAt: number | undefined;
}

const CLOSED: CircuitState = { state: 'closed', openedAt: undefined, consecutiveFailures: 0, lastFailure: undefined };

/**
 * Whether the panel answers at all. After a few failures in a row the circuit opens: requests are answered at once
 * as `unavailable` instead of each waiting out a timeout, and a probe asks the panel, backing off, until it answers.
 * Any answer closes the circuit again and `recovered$` wakes whatever waits for the panel.
 */
export class CircuitBreaker {
  private readonly circuit = new BehaviorSubject<CircuitState>(CLOSED);
  /** The circuit's state: the current one at once, then every change (a failure counted, the circuit opening or closing). */
  readonly circuit$: Observable<CircuitState> = this.circuit.asObservable();
  /** Emits when the circuit opens: the panel stopped answering. */
  readonly unreachable$: Observable<void> = this.becomes('open');
  /** Emits when the circuit closes: the panel answers again. */
  readonly recovered$: Observable<void> = this.becomes('closed');
  /** When the probe loop asks the panel next; it is the loop's schedule, not the circuit's state. */
  private nextProbeAt: number | undefined;
  private readonly probing: Subscription;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.probing = this.circuit
      .pipe(
        map(({ state }) => state),
        distinctUntilChanged(),
        switchMap((state) => (state === 'open' ? this.probes() : EMPTY)),
      )
      .subscribe();
  }

  get isOpen(): boolean {
    return this.circuit.value.state === 'open';
  }

  record(reachability: Reachability, failure?: string): void {
    const current = this.circuit.value;
    if (reachability === 'reachable') {
      if (current.state === 'open') this.close(current);
      else if (current.consecutiveFailures > 0) this.circuit.next({ ...current, consecutiveFailures: 0 });
      return;
    }
    const next: CircuitState = {
      ...current,
      consecutiveFailures: current.consecutiveFailures + 1,
      lastFailure: failure,
    };
    if (next.state === 'closed' && next.consecutiveFailures >= (this.options.failureThreshold ?? 3)) this.open(next);
    else this.circuit.next(next);
  }

  /** Resolves at once while the panel is taken to answer, else when it answers again. */
  untilReachable(): Promise<void> {
    return firstValueFrom(
      this.circuit.pipe(
        filter(({ state }) => state === 'closed'),
        map(() => undefined),
      ),
    );
  }

  snapshot(): CircuitSnapshot {
    const current = this.circuit.value;
    return { ...current, nextProbeAt: current.state === 'open' ? this.nextProbeAt : undefined };
  }

  stop(): void {
    this.probing.unsubscribe();
  }

  private becomes(state: CircuitState['state']): Observable<void> {
    // skip(1): the state a subscriber finds is not a change.
    return this.circuit.pipe(
      map((circuit) => circuit.state),
      distinctUntilChanged(),
      skip(1),
      filter((reached) => reached === state),
      map(() => undefined),
    );
  }

  private open(failing: CircuitState): void {
    this.options.logger.warn(
      `the panel is unreachable (${failing.consecutiveFailures} failures in a row, the last: ${failing.lastFailure ?? 'no answer'}); ` +
        'profiles come from the cache and duty changes wait until it answers again',
    );
    this.circuit.next({ ...failing, state: 'open', openedAt: this.options.now() });
  }

  private close(open: CircuitState): void {
    const downMs = this.options.now() - (open.openedAt ?? this.options.now());
    this.options.logger.info(`the panel answers again after ${Math.round(downMs / 1000)} s`);
    this.circuit.next({ ...open, state: 'closed', openedAt: undefined, consecutiveFailures: 0 });
  }

  /**
   * While the circuit is open: wait, probe, and again, the waits backing off. The circuit closing (the probe's answer,
   * or any other request's) ends the loop wherever it is.
   */
  private probes(): Observable<unknown> {
    let attempt = 0;
    return defer(() => {
      attempt += 1;
      const delay = backoffMs(this.options.probeBackoff ?? PROBE_BACKOFF, attempt, this.options.random);
      this.nextProbeAt = this.options.now() + delay;
      return abandonableWait(this.options.sleep, delay);
    }).pipe(
      concatMap(() => this.options.probe()),
      repeat(),
      catchError((error: unknown) => {
        this.options.logger.error(`the panel probe failed: ${String(error)}`);
        return EMPTY;
      }),
    );
  }
}

/**
 * Upper bounds (ms) of the latency histogram's buckets: a healthy panel answers in tens of milliseconds, the request
 * timeout is at most 60 s.
 */
export const LATENCY_BUCKETS_MS = [10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000] as const;

export interface LatencyHistogram {
  readonly bucketsMs: readonly number[];
  /** Answers at or below each bound, cumulative (Prometheus' `le`); every answer counts in `count`. */
  readonly cumulative: readonly number[];
  readonly sumMs: number;
  readonly count: number;
}

/**
 * Latency of the panel's answers: the recent ones for `bridge status`'s percentiles, and every answer since the
 * start counted in buckets, because a scraper computes its own rates and quantiles from counters that only grow.
 */
export class LatencyStats {
  private readonly recent: number[] = [];
  private last: number | undefined;
  private lastAnswerAt: number | undefined;
  private readonly perBucket = LATENCY_BUCKETS_MS.map(() => 0);
  private sumMs = 0;
  private count = 0;

  constructor(private readonly keep = 100) {}

  record(latencyMs: number, at: number): void {
    this.last = latencyMs;
    this.lastAnswerAt = at;
    this.recent.push(latencyMs);
    if (this.recent.length > this.keep) this.recent.shift();
    const bucket = LATENCY_BUCKETS_MS.findIndex((bound) => latencyMs <= bound);
    if (bucket >= 0) this.perBucket[bucket] = (this.perBucket[bucket] ?? 0) + 1;
    this.sumMs += latencyMs;
    this.count += 1;
  }

  snapshot(): {
    lastMs: number | undefined;
    p50Ms: number | undefined;
    p99Ms: number | undefined;
    lastAnswerAt: number | undefined;
    histogram: LatencyHistogram;
  } {
    const sorted = [...this.recent].sort((a, b) => a - b);
    const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
    let running = 0;
    return {
      lastMs: this.last,
      p50Ms: sorted.length ? at(0.5) : undefined,
      p99Ms: sorted.length ? at(0.99) : undefined,
      lastAnswerAt: this.lastAnswerAt,
      histogram: {
        bucketsMs: LATENCY_BUCKETS_MS,
        cumulative: this.perBucket.map((n) => {
          running += n;
          return running;
        }),
        sumMs: this.sumMs,
        count: this.count,
      },
    };
  }
}
