import { concatMap, defer, groupBy, mergeMap, Subject, type Subscription } from 'rxjs';
import type { DutyOffBody, DutyOnBody, DutyResponse } from '../../shared/contract/index.js';
import type { Logger } from '../log/logger.js';
import type { PanelClient } from '../panel/panel-client.js';
import type { PanelFailure } from '../panel/panel-result.js';
import type { KeyValueStore } from '../storage/key-value-store.js';

export type DutyCall = { action: 'on'; body: DutyOnBody } | { action: 'off'; body: DutyOffBody };

export interface OutboxRecord {
  id: number;
  call: DutyCall;
  createdAt: number;
}

export type DeliveryResult =
  | { kind: 'delivered'; response: DutyResponse }
  | { kind: 'refused'; failure: PanelFailure }
  | { kind: 'withdrawn' };

export interface OutboxOptions {
  store: KeyValueStore;
  panel: Pick<PanelClient, 'setDuty'>;
  logger: Logger;
  now: () => number;
  /** Waits `ms`; injected so tests run in virtual time. */
  sleep: (ms: number) => Promise<void>;
  random?: () => number;
  backoff?: { baseMs: number; maxMs: number };
}

const KEY_PREFIX = 'outbox:';
const SEQUENCE_KEY = 'outbox-sequence';
// Panel answers that are not a refusal of this call but may be garbage forever are tried a few times only.
const MAX_INVALID_ANSWERS = 5;

const recordKey = (id: number) => `${KEY_PREFIX}${String(id).padStart(12, '0')}`;

interface Pending {
  record: OutboxRecord;
  settle: (result: DeliveryResult) => void;
  withdrawn: boolean;
  /** Set once an attempt was sent (it may have reached the panel), so withdrawing it must be undone with an `off`. */
  mayHaveReachedPanel: boolean;
}

/**
 * Duty calls on their way to the panel. Each is written to KVP before it is sent, delivered in order per player,
 * retried with backoff and jitter while the failure is transient, and removed once delivered or refused.
 */
export class Outbox {
  private readonly queue = new Subject<Pending>();
  private readonly pending = new Map<number, Pending>();
  private readonly subscription: Subscription;
  private nextId: number;

  constructor(private readonly options: OutboxOptions) {
    this.nextId = Number(options.store.get(SEQUENCE_KEY) ?? '0') + 1;
    this.subscription = this.queue
      .pipe(
        groupBy((item) => item.record.call.body.chatId),
        mergeMap((perPlayer) => perPlayer.pipe(concatMap((item) => defer(() => this.deliver(item))))),
      )
      .subscribe();
  }

  /** Sends the records a previous run left behind, in their original order (an `on` as the `off` that undoes it). */
  resume(): number {
    const records = this.options.store
      .keys(KEY_PREFIX)
      .map((key) => this.options.store.get(key))
      .flatMap((value) => {
        try {
          return value ? [JSON.parse(value) as OutboxRecord] : [];
        } catch {
          return [];
        }
      })
      .sort((a, b) => a.id - b.id);
    for (const record of records) {
      this.nextId = Math.max(this.nextId, record.id + 1);
      // Duty is per session: an `on` left from the last run must not put anyone on duty now, but it may have
      // reached the panel, so the `off` that ends it is sent in its place.
      const { call } = record;
      if (call.action === 'on') {
        const { chatId, departmentId } = call.body;
        this.submit({ ...record, call: { action: 'off', body: { chatId, departmentId } } });
      } else {
        this.submit(record);
      }
    }
    return records.length;
  }

  /** Persists the call and queues it behind the player's earlier calls. */
  enqueue(call: DutyCall): { id: number; result: Promise<DeliveryResult> } {
    const record: OutboxRecord = { id: this.nextId++, call, createdAt: this.options.now() };
    this.options.store.set(SEQUENCE_KEY, String(record.id));
    this.options.store.set(recordKey(record.id), JSON.stringify(record));
    return { id: record.id, result: this.submit(record) };
  }

  /**
   * Gives up on a call the bridge no longer wants sent (a player who stopped waiting to go on duty). If an
   * attempt may already have reached the panel, an `off` follows so the panel does not keep a duty nobody has.
   */
  withdraw(id: number): void {
    const item = this.pending.get(id);
    if (!item || item.withdrawn) return;
    item.withdrawn = true;
    // Queued now, so the undo follows the attempt in flight and precedes whatever the player asks for next.
    if (item.mayHaveReachedPanel && item.record.call.action === 'on') this.undoOn(item.record.call.body);
  }

  get size(): number {
    return this.pending.size;
  }

  stop(): void {
    this.subscription.unsubscribe();
  }

  private submit(record: OutboxRecord): Promise<DeliveryResult> {
    return new Promise((settle) => {
      const item: Pending = { record, settle, withdrawn: false, mayHaveReachedPanel: false };
      this.pending.set(record.id, item);
      this.queue.next(item);
    });
  }

  private finish(item: Pending, result: DeliveryResult): void {
    this.pending.delete(item.record.id);
    this.options.store.delete(recordKey(item.record.id));
    item.settle(result);
  }

  private backoffMs(attempt: number, failure: PanelFailure): number {
    if (failure.retryAfterMs !== undefined) return failure.retryAfterMs;
    const { baseMs, maxMs } = this.options.backoff ?? { baseMs: 1_000, maxMs: 60_000 };
    const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
    const random = this.options.random ?? Math.random;
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  }

  private async deliver(item: Pending): Promise<void> {
    const { call } = item.record;
    const { logger } = this.options;
    let invalidAnswers = 0;
    for (let attempt = 1; ; attempt++) {
      if (item.withdrawn) {
        this.withdrawCall(item);
        return;
      }
      item.mayHaveReachedPanel = true;
      const result =
        call.action === 'on'
          ? await this.options.panel.setDuty('on', call.body)
          : await this.options.panel.setDuty('off', call.body);
      if (result.ok) {
        this.finish(item, { kind: 'delivered', response: result.value });
        return;
      }
      const { failure } = result;
      if (failure.kind === 'rejected' || failure.kind === 'not_found' || ++invalidAnswers > MAX_INVALID_ANSWERS) {
        logger.warn(
          `the panel refused duty ${call.action} for chat id ${call.body.chatId}: ${failure.code ?? failure.kind} (${failure.message}); the call is dropped`,
        );
        this.finish(item, { kind: 'refused', failure });
        return;
      }
      if (failure.kind !== 'invalid_response') invalidAnswers = 0;
      const wait = this.backoffMs(attempt, failure);
      logger.debug(
        `duty ${call.action} for chat id ${call.body.chatId} failed (${failure.kind}); retrying in ${wait} ms`,
      );
      await this.options.sleep(wait);
    }
  }

  private withdrawCall(item: Pending): void {
    this.finish(item, { kind: 'withdrawn' });
  }

  private undoOn(body: DutyOnBody): void {
    this.enqueue({ action: 'off', body: { chatId: body.chatId, departmentId: body.departmentId } });
  }
}
