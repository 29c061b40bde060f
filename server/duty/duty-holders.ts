import type { DutyState } from './duty-state.js';
import type { DutyCall } from './outbox.js';

export type OnCall = Extract<DutyCall, { action: 'on' }>;

/** The session holding a chat account's duty, and the `on` that made it so (to assert it again at the panel). */
interface Holder {
  src: number;
  call: OnCall;
}

/**
 * Who holds each chat account's duty: the panel keeps one duty per account, so at most one session of it is on duty
 * in game, and only that session's calls speak for the account at the panel.
 */
export class DutyHolders {
  private readonly holders = new Map<string, Holder>();

  constructor(private readonly stateOf: (src: number) => DutyState) {}

  holder(chatId: string): number | undefined {
    return this.holders.get(chatId)?.src;
  }

  holds(chatId: string, src: number): boolean {
    return this.holder(chatId) === src;
  }

  hold(src: number, call: OnCall): void {
    this.holders.set(call.body.chatId, { src, call });
  }

  release(chatId: string): void {
    this.holders.delete(chatId);
  }

  forget(src: number): void {
    for (const [chatId, holder] of this.holders) if (holder.src === src) this.holders.delete(chatId);
  }

  get size(): number {
    return this.holders.size;
  }

  /**
   * What ends at the panel an `on` the game did not apply: an `off`, unless another session of the account holds
   * the duty by then; that session's duty is then sent again (the `on` replaced it at the panel), or nothing when
   * the `on` asked for the very same duty.
   */
  undoOf(src: number, call: OnCall): DutyCall | null {
    const { chatId, departmentId } = call.body;
    const held = this.heldDutyCall(chatId, src);
    if (!held) return { action: 'off', body: { chatId, departmentId } };
    if (held.body.departmentId === departmentId && held.body.rankId === call.body.rankId) return null;
    return held;
  }

  /**
   * The call that makes the account's duty at the panel what the game has, whatever the panel holds now: another
   * session's duty sent again, or an `off` naming no department, which ends any duty of the account.
   */
  accountAsInGame(src: number, call: OnCall): DutyCall {
    return this.heldDutyCall(call.body.chatId, src) ?? { action: 'off', body: { chatId: call.body.chatId } };
  }

  /** The `on` of the duty another session of the account holds in game, if one does. */
  private heldDutyCall(chatId: string, exceptSrc: number): OnCall | undefined {
    const holder = this.holders.get(chatId);
    const held = holder && holder.src !== exceptSrc ? this.stateOf(holder.src) : undefined;
    if (!holder || !held?.onDuty || held.departmentId === null || held.rankId === null) return undefined;
    return { action: 'on', body: { ...holder.call.body, departmentId: held.departmentId, rankId: held.rankId } };
  }
}
