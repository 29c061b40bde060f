import { concatMap, defer, finalize, from, map, type Observable, of, retry, Subject, type Subscription } from 'rxjs';
import type { DutyAnswer } from '../../shared/contract/index.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import { abandonableWait, backoffMs, concatMapPerKey, LONGEST_WAIT_MS, sleepUntilWoken } from '../kernel/index.js';
import type { PanelClient } from '../panel/panel-client.js';
import { isRefusalOfTheCall, type PanelFailure, type PanelResult } from '../panel/panel-result.js';
import type { DeliveryResult, DutyCall, OutboxRecord } from './duty-call.js';
import { OutboxFaultReports } from './outbox-fault-reports.js';
import { OutboxStore } from './outbox-store.js';

// The call types live in duty-call.ts (the duty rules make calls without knowing the outbox); named here too for
// whoever holds an outbox.
export type { DeliveryResult, DutyCall, OutboxRecord } from './duty-call.js';

/** Whether the panel answers, from the circuit breaker. */
export interface PanelAvailability {
  /** Resolves at once while the panel is taken to answer, else when it answers again. */
  untilReachable(): Promise<void>;
  /** Emits when the panel answers again after an outage: a backoff in progress is cut short. */
  readonly recovered$: Observable<void>;
}

export interface OutboxOptions {
  store: KeyValueStore;
  panel: Pick<PanelClient, 'setDuty'>;
  /** Without it the outbox only knows its own failures and waits out every backoff. */
  availability?: PanelAvailability;
  logger: Logger;
  now: () => number;
  /** Waits `ms`; injected so tests run in virtual time. */
  sleep: (ms: number) => Promise<void>;
  random?: () => number;
  backoff?: { baseMs: number; maxMs: number };
  /**
   * In a community (BRIDGE_REDIS_URL): the other server that owns the account's duty, if one does. A call a crashed
   * run kept is not sent for an account another server has taken since (its `on` replaced that run's at the panel).
   */
  ownerElsewhere?: (chatId: string) => Promise<string | undefined>;
}

const WITHDRAWN: DeliveryResult = { kind: 'withdrawn' };

/** An attempt that was neither taken nor refused by the panel: `retry` waits and tries again. */
class NotYetDelivered extends Error {
  constructor(readonly failure: PanelFailure) {
    super(failure.message);
  }
}

interface Pending {
  record: OutboxRecord;
  settle: (result: DeliveryResult) => void;
  withdrawn: boolean;
  /** Takes an attempt that waits for its turn out of the scheduler's queue. */
  abort: AbortController;
  /**
   * Set once an attempt left for the panel (the scheduler tells), so withdrawing it must be undone with an `off`;
   * an attempt still waiting for its turn is simply taken back.
   */
  mayHaveReachedPanel: boolean;
  /** A call a crashed run kept (resume): in a community, sent only if no other server took the account since. */
  fromLastRun?: 'ask' | 'asked';
}

export interface OutboxStats {
  size: number;
  /** Calls held back because the panel is unreachable. */
  waitingForPanel: number;
  oldestCreatedAt: number | undefined;
}

/**
 * Duty calls on their way to the panel. Each is written to KVP before it is sent, delivered in order per player,
 * retried with backoff and jitter, and removed once delivered or refused by the panel itself. Anything short of
 * such a refusal (an outage, a proxy's error page, a wrong token, garbage) keeps the call queued, across restarts,
 * because a duty record must not be lost to a fault that may be fixed. While the panel is known to be down a call
 * waits for it without spending attempts, and the panel answering again cuts every backoff short.
 *
 * This is the lanes and the retries; the records in KVP are the OutboxStore's (outbox-store.ts), and what the
 * console is told is the OutboxFaultReports' (outbox-fault-reports.ts).
 */
export class Outbox {
  private readonly queue = new Subject<Pending>();
  private readonly pending = new Map<number, Pending>();
  private readonly subscription: Subscription;
  private readonly lanes = { open: 0 };
  private waitingForPanel = 0;
  private nextId: number;
  private readonly kept: OutboxStore;
  private readonly reports: OutboxFaultReports;

  constructor(private readonly options: OutboxOptions) {
    this.kept = new OutboxStore(options.store, options.logger);
    this.reports = new OutboxFaultReports(options.logger);
    this.nextId = this.kept.sequence() + 1;
    this.subscription = this.queue
      .pipe(
        concatMapPerKey(
          (item) => item.record.call.body.chatId,
          (item) => this.delivery(item),
          this.lanes,
        ),
      )
      .subscribe();
  }

  /**
   * Sends the records a previous run left behind, in their original order. Duty is per session, so nobody is on
   * duty after a restart: an `on` still waiting for the panel becomes the `off` that ends it (it may have reached
   * the panel); an `on` the game had applied (degraded mode) is delivered, then ended with an `off`.
   */
  resume(): number {
    const records = this.kept.kept();
    const lastOf = new Map(records.map((record) => [record.call.body.chatId, record.id]));
    for (const record of records) {
      const { call } = record;
      if (call.action !== 'on') {
        this.submit(record, true);
        continue;
      }
      const { chatId, departmentId } = call.body;
      if (!record.appliedInGame) {
        this.submit({ ...record, call: { action: 'off', body: { chatId, departmentId } } }, true);
        continue;
      }
      this.submit(record, true);
      // A run that ended without its stop (a crash) left no `off` behind the duty it had.
      if (lastOf.get(chatId) === record.id) this.enqueue({ action: 'off', body: { chatId, departmentId } }, {}, true);
    }
    return records.length;
  }

  /** Persists the call and queues it behind the player's earlier calls. */
  enqueue(
    call: DutyCall,
    { appliedInGame = false } = {},
    fromLastRun = false,
  ): { id: number; result: Promise<DeliveryResult> } {
    const record: OutboxRecord = { id: this.nextId++, call, createdAt: this.options.now() };
    if (appliedInGame && call.action === 'on') record.appliedInGame = true;
    this.kept.add(record);
    return { id: record.id, result: this.submit(record, fromLastRun) };
  }

  /** The game applied this queued `on` after all (the panel went down while the player waited): keep it so. */
  markApplied(id: number): void {
    const item = this.pending.get(id);
    if (item?.record.call.action !== 'on') return;
    item.record.appliedInGame = true;
    this.kept.rewrite(item.record);
  }

  /**
   * Persists calls without sending them: resume() sends them with the calls kept from the last run, after every one
   * of them (their ids are higher than any kept record's).
   */
  keep(calls: readonly DutyCall[]): void {
    if (calls.length === 0) return;
    for (const call of calls) this.kept.add({ id: this.nextId++, call, createdAt: this.options.now() });
  }

  /**
   * Gives up on a call the bridge no longer wants sent (a player who stopped waiting to go on duty, or left). If
   * an attempt may already have reached the panel, `undo` follows (by default the `off` that ends the `on`; null:
   * nothing), so the panel does not keep a duty nobody has.
   */
  withdraw(id: number, undo?: DutyCall | null): void {
    const item = this.pending.get(id);
    if (!item || item.withdrawn) return;
    item.withdrawn = true;
    item.abort.abort();
    const { call } = item.record;
    if (!item.mayHaveReachedPanel || call.action !== 'on') return;
    // Queued now, so the undo follows the attempt in flight and precedes whatever the player asks for next.
    const { chatId, departmentId } = call.body;
    const then = undo === undefined ? { action: 'off' as const, body: { chatId, departmentId } } : undo;
    if (then) this.enqueue(then);
  }

  /** Chat accounts with calls on their way: all zero once every call is delivered. */
  get openLanes(): number {
    return this.lanes.open;
  }

  get size(): number {
    return this.pending.size;
  }

  stats(): OutboxStats {
    let oldestCreatedAt: number | undefined;
    for (const { record } of this.pending.values())
      oldestCreatedAt = Math.min(oldestCreatedAt ?? record.createdAt, record.createdAt);
    return { size: this.pending.size, waitingForPanel: this.waitingForPanel, oldestCreatedAt };
  }

  stop(): void {
    this.subscription.unsubscribe();
  }

  private submit(record: OutboxRecord, fromLastRun = false): Promise<DeliveryResult> {
    return new Promise((settle) => {
      const item: Pending = {
        record,
        settle,
        withdrawn: false,
        abort: new AbortController(),
        mayHaveReachedPanel: false,
      };
      if (fromLastRun && this.options.ownerElsewhere) item.fromLastRun = 'ask';
      this.pending.set(record.id, item);
      this.queue.next(item);
    });
  }

  private finish(item: Pending, result: DeliveryResult): DeliveryResult {
    this.pending.delete(item.record.id);
    this.kept.remove(item.record.id);
    item.settle(result);
    return result;
  }

  private retryDelayMs(attempt: number, failure: PanelFailure): number {
    const policy = this.options.backoff ?? { baseMs: 1_000, maxMs: LONGEST_WAIT_MS };
    // The server's word wins, up to the cap (the scheduler tells the owner about a longer one).
    if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, policy.maxMs);
    return backoffMs(policy, attempt, this.options.random ?? Math.random);
  }

  /**
   * One call's way to the panel: attempts until one is final (delivered, refused by the panel, withdrawn). An attempt
   * that is not final fails the stream with `NotYetDelivered`, and `retry` waits before the next: for the panel to
   * answer again while it is known to be down, else a backoff that the panel answering again cuts short.
   */
  private delivery(item: Pending): Observable<DeliveryResult> {
    let backoffsSpent = 0;
    return defer(() => this.attempt(item)).pipe(
      retry({
        delay: (error: unknown) => {
          if (!(error instanceof NotYetDelivered)) throw error;
          const { failure } = error;
          return failure.kind === 'unavailable'
            ? this.untilPanelAnswers(() => this.retryDelayMs(++backoffsSpent, failure))
            : this.backOff(item, failure, ++backoffsSpent);
        },
      }),
    );
  }

  private attempt(item: Pending): Observable<DeliveryResult> {
    if (item.withdrawn) return of(this.finish(item, WITHDRAWN));
    const { call } = item.record;
    const { ownerElsewhere } = this.options;
    if (item.fromLastRun === 'ask' && ownerElsewhere) {
      item.fromLastRun = 'asked';
      const { chatId } = call.body;
      // Redis gone: nothing more is known than on one server, and the account's lane is not held for it.
      return from(ownerElsewhere(chatId).catch(() => undefined)).pipe(
        concatMap((server) => {
          if (server === undefined) return this.attempt(item);
          this.options.logger.info(
            `the ${call.action} a crashed run kept for chat account ${chatId} is not sent: server ${server} has taken the account since`,
          );
          return of(this.finish(item, WITHDRAWN));
        }),
      );
    }
    const options = { signal: item.abort.signal, onSent: () => (item.mayHaveReachedPanel = true) };
    const sent =
      call.action === 'on'
        ? this.options.panel.setDuty('on', call.body, options)
        : this.options.panel.setDuty('off', call.body, options);
    // Settled in the answer's promise, not in the stream: an answer that comes after stop() still removes its record.
    const outcome = sent.then((result) => this.outcomeOf(item, result));
    return from(outcome).pipe(
      map((result) => {
        if (result instanceof NotYetDelivered) throw result;
        return result;
      }),
    );
  }

  private outcomeOf(item: Pending, result: PanelResult<DutyAnswer>): DeliveryResult | NotYetDelivered {
    if (result.ok) {
      this.reports.delivered();
      return this.finish(item, { kind: 'delivered', response: result.value });
    }
    const { failure } = result;
    // Only a withdrawal cancels: the attempt never left, so nothing is to be undone.
    if (failure.kind === 'cancelled') return this.finish(item, WITHDRAWN);
    if (failure.kind !== 'unavailable' && isRefusalOfTheCall(failure)) {
      this.reports.refused(item.record.call, failure);
      return this.finish(item, { kind: 'refused', failure });
    }
    return new NotYetDelivered(failure);
  }

  /**
   * Not sent: the panel is known to be down. With the breaker to tell when it answers again, no backoff is spent;
   * without it, a backoff is all the outbox can do.
   */
  private untilPanelAnswers(nextBackoffMs: () => number): Observable<unknown> {
    const { availability, sleep } = this.options;
    return defer(() => {
      this.waitingForPanel += 1;
      return availability ? availability.untilReachable() : abandonableWait(sleep, nextBackoffMs());
    }).pipe(
      finalize(() => {
        this.waitingForPanel -= 1;
      }),
    );
  }

  private backOff(item: Pending, failure: PanelFailure, attempt: number): Observable<unknown> {
    const wait = this.retryDelayMs(attempt, failure);
    this.reports.retrying(item.record.call, failure, wait);
    // The panel answering again (the circuit closing) cuts the wait short.
    return sleepUntilWoken(this.options.sleep, wait, this.options.availability?.recovered$);
  }
}
