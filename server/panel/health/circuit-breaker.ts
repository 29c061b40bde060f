import { Subject } from 'rxjs';
import type { Logger } from '../../log/logger.js';
import { backoffMs } from '../../time/backoff.js';
import type { PanelResponseInfo } from '../panel-client.js';

/** What one exchange says about the panel: an HTTP answer below 500 means it is up, whatever the status. */
export type Reachability = 'reachable' | 'unreachable';

export const reachabilityOf = (response: PanelResponseInfo): Reachability =>
  response.status !== undefined && response.status < 500 ? 'reachable' : 'unreachable';

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

export interface CircuitSnapshot {
  state: 'closed' | 'open';
  /** When the circuit opened (the panel stopped answering), while it is open. */
  openedAt: number | undefined;
  consecutiveFailures: number;
  lastFailure: string | undefined;
  nextProbeAt: number | undefined;
}

/**
 * Whether the panel answers at all. After a few failures in a row the circuit opens: requests are answered at once
 * as `unavailable` instead of each waiting out a timeout, and a probe asks the panel, backing off, until it answers.
 * Any answer closes the circuit again and `recovered$` wakes whatever waits for the panel.
 */
export class CircuitBreaker {
  /** Emits when the circuit opens: the panel stopped answering. */
  readonly unreachable$ = new Subject<void>();
  /** Emits when the circuit closes: the panel answers again. */
  readonly recovered$ = new Subject<void>();
  private state: 'closed' | 'open' = 'closed';
  private failures = 0;
  private openedAt: number | undefined;
  private lastFailure: string | undefined;
  private nextProbeAt: number | undefined;
  private probeAttempt = 0;
  private stopped = false;

  constructor(private readonly options: CircuitBreakerOptions) {}

  get isOpen(): boolean {
    return this.state === 'open';
  }

  record(reachability: Reachability, failure?: string): void {
    if (reachability === 'reachable') {
      this.failures = 0;
      if (this.state === 'open') this.close();
      return;
    }
    this.failures += 1;
    this.lastFailure = failure;
    if (this.state === 'closed' && this.failures >= (this.options.failureThreshold ?? 3)) this.open();
  }

  /** Resolves at once while the panel is taken to answer, else when it answers again. */
  untilReachable(): Promise<void> {
    if (this.state === 'closed') return Promise.resolve();
    return new Promise((resolve) => {
      const subscription = this.recovered$.subscribe(() => {
        subscription.unsubscribe();
        resolve();
      });
    });
  }

  snapshot(): CircuitSnapshot {
    return {
      state: this.state,
      openedAt: this.openedAt,
      consecutiveFailures: this.failures,
      lastFailure: this.lastFailure,
      nextProbeAt: this.nextProbeAt,
    };
  }

  stop(): void {
    this.stopped = true;
  }

  private open(): void {
    this.state = 'open';
    this.openedAt = this.options.now();
    this.probeAttempt = 0;
    this.options.logger.warn(
      `the panel is unreachable (${this.failures} failures in a row, the last: ${this.lastFailure ?? 'no answer'}); ` +
        'profiles come from the cache and duty changes wait until it answers again',
    );
    this.unreachable$.next();
    this.scheduleProbe();
  }

  private close(): void {
    const downMs = this.options.now() - (this.openedAt ?? this.options.now());
    this.state = 'closed';
    this.openedAt = undefined;
    this.nextProbeAt = undefined;
    this.options.logger.info(`the panel answers again after ${Math.round(downMs / 1000)} s`);
    this.recovered$.next();
  }

  private scheduleProbe(): void {
    if (this.stopped || this.state !== 'open') return;
    this.probeAttempt += 1;
    const delay = backoffMs(this.options.probeBackoff ?? PROBE_BACKOFF, this.probeAttempt, this.options.random);
    this.nextProbeAt = this.options.now() + delay;
    void this.options
      .sleep(delay)
      .then(async () => {
        if (this.stopped || this.state !== 'open') return;
        await this.options.probe();
        this.scheduleProbe();
      })
      .catch((error: unknown) => this.options.logger.error(`the panel probe failed: ${String(error)}`));
  }
}
