import { merge, type Observable, Subject } from 'rxjs';
import type { CallFence, DutyCall, FenceGate, OutboxRecord } from '../duty/index.js';
import type { Logger } from '../kernel/index.js';
import { errorText, REDIS_URL_CONVAR } from '../kernel/index.js';
import type { DutyOwners, FenceRequest } from './community.js';
import type { HeldForRedis } from './held-for-redis.js';

/**
 * How long a confirmed attempt may wait for its turn (the panel's budget) before it must be confirmed again: one
 * request timeout, at least a second.
 */
export const sendWithinMs = (requestTimeoutMs: number): number => Math.max(1_000, requestTimeoutMs);
/** Past the request's own timeout, for the panel to finish what it took just before the deadline. */
const LEASE_MARGIN_MS = 2_000;

/** What the gate asks of the community's duty owners. */
export type OutboxFence = Pick<DutyOwners, 'confirm' | 'delivered' | 'sending' | 'intend' | 'answers$'>;

const UNCLAIMED: CallFence = { unclaimed: true };

/**
 * The community's fence in front of the outbox (issue 30; docs/several-servers.md, "How an account's duty is
 * fenced"): right before each attempt of a fenced call, Redis confirms that the call's claim still owns the account.
 * A stale call is not sent, with one line. A call Redis cannot confirm (down, timing out, cut off) is held until it
 * can: one WARN for the server while any is held, one INFO when none is, `bridge status` lists them (HeldForRedis),
 * and `bridge release` sends them without the confirmation.
 */
export class OutboxFenceGate implements FenceGate {
  /** Each held call's end of its wait in HeldForRedis, by outbox id. */
  private readonly held = new Map<number, () => void>();
  private readonly forced = new Set<number>();
  private readonly released = new Subject<void>();
  private readonly leaseMs: number;
  /** See sendWithinMs. */
  readonly sendWithinMs: number;

  /** Redis answers again, or the owner released what was held: held calls try again at once. */
  readonly woken$: Observable<unknown>;

  constructor(
    private readonly fence: OutboxFence,
    private readonly options: {
      logger: Logger;
      /** What `bridge status` lists as held for Redis. */
      heldForRedis: Pick<HeldForRedis, 'hold'>;
      requestTimeoutMs: number;
    },
  ) {
    this.sendWithinMs = sendWithinMs(options.requestTimeoutMs);
    this.leaseMs = this.sendWithinMs + options.requestTimeoutMs + LEASE_MARGIN_MS;
    this.woken$ = merge(fence.answers$, this.released);
  }

  /**
   * The fence a call goes under, or none (the `on` of a new duty: its claim follows). A call a run before this one
   * kept without a fence (an older version's) goes only while nobody holds the account.
   */
  fenceOf(call: DutyCall, fromLastRun: boolean): CallFence | undefined {
    return call.fence ?? (fromLastRun ? UNCLAIMED : undefined);
  }

  /** Right before an attempt: whether it may go, or is held while Redis cannot confirm. */
  async confirm(record: OutboxRecord, fence: CallFence, fromLastRun: boolean): Promise<'go' | 'stale' | 'held'> {
    if (this.forced.delete(record.id)) return 'go';
    const request = this.requestOf(record.call, fence, fromLastRun);
    let answer: Awaited<ReturnType<OutboxFence['confirm']>>;
    try {
      answer = await this.fence.confirm(request);
    } catch (error) {
      this.hold(record, fromLastRun, error);
      return 'held';
    }
    this.unhold(record.id);
    if (answer.kind === 'go') return 'go';
    const { action, body } = record.call;
    this.options.logger.info(`the ${action} of chat account ${body.chatId} is not sent: ${answer.why}`);
    return 'stale';
  }

  /** A fenced call the panel took. */
  delivered(record: OutboxRecord, fence: CallFence, fromLastRun: boolean): void {
    this.fence.delivered(this.requestOf(record.call, fence, fromLastRun));
  }

  /** Right before an `on` of a new duty is sent: announced, so a peer can end it if this server dies unclaimed. */
  intend(call: DutyCall): Promise<void> {
    if (call.action !== 'on') return Promise.resolve();
    return this.fence.intend(call.body.chatId, call.body.departmentId);
  }

  /** An `on` of a new duty leaves for the panel: its claim's fence is the moment the panel takes it. */
  sending(chatId: string): void {
    this.fence.sending(chatId);
  }

  /** A call that left the outbox (delivered, refused, withdrawn): no longer held. */
  forget(id: number): void {
    this.forced.delete(id);
    this.unhold(id);
  }

  /** `bridge release`: every call held for Redis goes at once, without a confirmation. */
  release(): number {
    const count = this.held.size;
    for (const [id, unhold] of this.held) {
      this.forced.add(id);
      unhold();
    }
    this.held.clear();
    if (count > 0) {
      this.options.logger.warn(
        `${count} duty call(s) held for Redis are sent without Redis's confirmation (bridge release): an off among them may end a shift the account opened on another server since`,
      );
    }
    this.released.next();
    return count;
  }

  private requestOf(call: DutyCall, fence: CallFence, fromLastRun: boolean): FenceRequest {
    const departmentId = call.body.departmentId ?? undefined;
    return { chatId: call.body.chatId, action: call.action, fence, departmentId, fromLastRun, leaseMs: this.leaseMs };
  }

  private hold(record: OutboxRecord, fromLastRun: boolean, error: unknown): void {
    if (this.held.has(record.id)) return;
    const { action, body } = record.call;
    const first = this.held.size === 0;
    const department = body.departmentId === undefined ? '' : ` (department ${body.departmentId})`;
    const what = `${action} of chat account ${body.chatId}${department}${fromLastRun ? ', kept by the last run' : ''}`;
    this.held.set(record.id, this.options.heldForRedis.hold(what));
    if (!first) return;
    this.options.logger.warn(
      `${this.held.size} duty call(s) wait for Redis (${REDIS_URL_CONVAR}) to confirm that they are still this server's to send (${errorText(error)}); none is sent on a guess. bridge status lists them; bridge release sends them without the confirmation`,
    );
  }

  private unhold(id: number): void {
    const unhold = this.held.get(id);
    if (!unhold) return;
    unhold();
    this.held.delete(id);
    if (this.held.size > 0) return;
    this.options.logger.info('Redis confirms the duty calls again: those it held go on');
  }
}
