import { concatMap, defer, finalize, from, map, type Observable, of, retry, Subject, type Subscription } from 'rxjs';
import type { DutyAnswer } from '../../shared/contract/index.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import { abandonableWait, backoffMs, concatMapPerKey, LONGEST_WAIT_MS, sleepUntilWoken } from '../kernel/index.js';
import type { PanelClient } from '../panel/index.js';
import { isRefusalOfTheCall, type PanelFailure, type PanelResult } from '../panel/index.js';
import type { CallFence, DeliveryResult, DutyCall, FenceGate, OutboxRecord } from './duty-call.js';
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
   * In a community (BRIDGE_REDIS_URL): the fence a fenced call must still hold in Redis right before each attempt
   * (server/community/outbox-fence-gate.ts, in dist/redis.cjs).
   */
  fence?: FenceGate;
}

const WITHDRAWN: DeliveryResult = { kind: 'withdrawn' };

/** Redis could not confirm a fenced call: the call waits, and is never sent on a guess. */
class NotConfirmed extends Error {}

/** How a call held for Redis asks again when nothing wakes it first. */
const HELD_RETRY = { baseMs: 250, maxMs: 5_000 };

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
  /** A call a run before this one kept (resume): one without a fence goes only while nobody holds the account. */
  fromLastRun: boolean;
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
  private readonly gate: FenceGate | undefined;

  constructor(private readonly options: OutboxOptions) {
    this.kept = new OutboxStore(options.store, options.logger);
    this.reports = new OutboxFaultReports(options.logger);
    this.gate = options.fence;
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
        // Never claimed: its undo goes only while nobody holds the account.
        const undo: DutyCall = { action: 'off', body: { chatId, departmentId }, fence: { unclaimed: true } };
        this.submit({ ...record, call: undo }, true);
        continue;
      }
      this.submit(record, true);
      // A run that ended without its stop (a crash) left no `off` behind the duty it had: under the same claim.
      const off: DutyCall = { action: 'off', body: { chatId, departmentId }, fence: call.fence ?? { unclaimed: true } };
      if (lastOf.get(chatId) === record.id) this.enqueue(off, {}, true);
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

  /**
   * The game applied this queued `on` after all (the panel went down while the player waited): keep it so. From now
   * on it goes under the claim its duty made (`fence`), like an `on` queued while the panel was down.
   */
  markApplied(id: number, fence?: CallFence): void {
    const item = this.pending.get(id);
    if (item?.record.call.action !== 'on') return;
    item.record.appliedInGame = true;
    if (fence) item.record.call = { ...item.record.call, fence };
    this.kept.rewrite(item.record);
  }

  /** `bridge release`: the calls held for Redis go without its confirmation (how many). */
  releaseHeld(): number {
    return this.gate?.release() ?? 0;
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
    // Queued now, so the undo follows the attempt in flight and precedes whatever the player asks for next. Never
    // claimed, the default undo goes only while nobody holds the account.
    const { chatId, departmentId } = call.body;
    const then: DutyCall | null =
      undo === undefined ? { action: 'off', body: { chatId, departmentId }, fence: { unclaimed: true } } : undo;
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
        fromLastRun,
      };
      this.pending.set(record.id, item);
      this.queue.next(item);
    });
  }

  private finish(item: Pending, result: DeliveryResult): DeliveryResult {
    this.pending.delete(item.record.id);
    this.gate?.forget(item.record.id);
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
    let confirmsFailed = 0;
    return defer(() => this.attempt(item)).pipe(
      retry({
        delay: (error: unknown) => {
          // Redis cannot confirm: held until it can (or the owner releases it), however long.
          if (error instanceof NotConfirmed && this.gate) return this.heldWait(this.gate, ++confirmsFailed);
          if (!(error instanceof NotYetDelivered)) throw error;
          confirmsFailed = 0;
          const { failure } = error;
          // Not sent within its confirmation (the panel's budget held it): confirmed again at once.
          if (failure.kind === 'cancelled') return of(undefined);
          return failure.kind === 'unavailable'
            ? this.untilPanelAnswers(() => this.retryDelayMs(++backoffsSpent, failure))
            : this.backOff(item, failure, ++backoffsSpent);
        },
      }),
    );
  }

  private attempt(item: Pending): Observable<DeliveryResult> {
    if (item.withdrawn) return of(this.finish(item, WITHDRAWN));
    const { gate } = this;
    const fence = gate?.fenceOf(item.record.call, item.fromLastRun);
    if (!gate) return this.send(item);
    if (!fence) {
      // The `on` of a new duty: announced first, so a peer ends it should this server die before claiming it.
      return from(gate.intend(item.record.call)).pipe(
        concatMap(() => (item.withdrawn ? of(this.finish(item, WITHDRAWN)) : this.send(item))),
      );
    }
    return from(gate.confirm(item.record, fence, item.fromLastRun)).pipe(
      concatMap((answer) => {
        if (answer === 'held') throw new NotConfirmed();
        if (answer === 'stale') return of(this.finish(item, WITHDRAWN));
        if (item.withdrawn) return of(this.finish(item, WITHDRAWN));
        return this.send(item, fence);
      }),
    );
  }

  /**
   * One attempt at the panel. A fenced one must leave within a request timeout of its confirmation (its turn may wait
   * for the panel's budget): later, it is taken back and confirmed again, so Redis's `quiet` stays a true bound.
   */
  private send(item: Pending, fence?: CallFence): Observable<DeliveryResult> {
    const { call } = item.record;
    const lease = fence ? new AbortController() : undefined;
    let left = false;
    if (lease) {
      void this.options.sleep(this.gate?.sendWithinMs ?? 0).then(() => {
        if (!left) lease.abort();
      });
    }
    const signal = lease ? AbortSignal.any([item.abort.signal, lease.signal]) : item.abort.signal;
    const onSent = () => {
      left = true;
      item.mayHaveReachedPanel = true;
      if (!fence && call.action === 'on') this.gate?.sending(call.body.chatId);
    };
    const options = { signal, onSent };
    const sent =
      call.action === 'on'
        ? this.options.panel.setDuty('on', call.body, options)
        : this.options.panel.setDuty('off', call.body, options);
    // Settled in the answer's promise, not in the stream: an answer that comes after stop() still removes its record.
    const outcome = sent.then((result) => {
      if (result.ok && fence) this.gate?.delivered(item.record, fence, item.fromLastRun);
      return this.outcomeOf(item, result);
    });
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
    // A withdrawal cancels (the attempt never left, so nothing is to be undone), and so does the end of a fenced
    // attempt's lease, which is confirmed again.
    if (failure.kind === 'cancelled')
      return item.withdrawn ? this.finish(item, WITHDRAWN) : new NotYetDelivered(failure);
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

  /** The wait before a call held for Redis asks again: until Redis answers again, the owner releases it, or a backoff. */
  private heldWait(gate: FenceGate, attempt: number): Observable<unknown> {
    const wait = backoffMs(HELD_RETRY, attempt, this.options.random ?? Math.random);
    return sleepUntilWoken(this.options.sleep, wait, gate.woken$);
  }

  private backOff(item: Pending, failure: PanelFailure, attempt: number): Observable<unknown> {
    const wait = this.retryDelayMs(attempt, failure);
    this.reports.retrying(item.record.call, failure, wait);
    // The panel answering again (the circuit closing) cuts the wait short.
    return sleepUntilWoken(this.options.sleep, wait, this.options.availability?.recovered$);
  }
}
