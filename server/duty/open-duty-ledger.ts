import { z } from 'zod';
import { ChatIdSchema } from '../../shared/contract/index.js';
import type { KeyValueStore } from '../storage/key-value-store.js';

const KEY_PREFIX = 'open-duty:';
// Unreadable records move here: kept for whoever wants to look, never read again.
const SET_ASIDE_PREFIX = 'open-duty-set-aside:';

const OpenDutySchema = z.object({
  chatId: ChatIdSchema,
  departmentId: z.number().int(),
  rankId: z.number().int(),
  /** When the duty began (wall clock, for the record only). */
  since: z.number(),
  /** The player's server id in the run that recorded it, for the log line. */
  serverId: z.number().int(),
});

export type OpenDuty = z.infer<typeof OpenDutySchema>;

export interface LeftOver {
  duties: OpenDuty[];
  /** Records that could not be read, already set aside, with the reason. */
  setAside: Array<{ key: string; movedTo: string; problem: string }>;
}

const keyOf = (chatId: string) => `${KEY_PREFIX}${chatId}`;

/**
 * Every duty the game has open at the panel, one KVP record per chat account (duty belongs to the account at the
 * panel, not to a server id), written as it changes. The store's writes are synced: a record must outlive a crash
 * of the process that wrote it. An orderly stop takes everyone off duty and so leaves the ledger empty; what is
 * found in it at start was left by a run that died without its stop.
 */
export class OpenDutyLedger {
  /** Whose record each on-duty player wrote, so going off duty needs no other lookup. */
  private readonly chatIdOf = new Map<number, string>();

  constructor(private readonly store: KeyValueStore) {}

  /** A player went on duty or changed rank. */
  opened(duty: OpenDuty): void {
    this.chatIdOf.set(duty.serverId, duty.chatId);
    this.store.set(keyOf(duty.chatId), JSON.stringify(duty));
  }

  /** A player went off duty. Another session of the same account that holds the record keeps it. */
  closed(serverId: number): void {
    const chatId = this.chatIdOf.get(serverId);
    if (chatId === undefined) return;
    this.chatIdOf.delete(serverId);
    const held = this.read(keyOf(chatId));
    if (held.ok && held.duty.serverId !== serverId) return;
    this.store.delete(keyOf(chatId));
  }

  /** The records a previous run left; unreadable ones are set aside on the way, so they are reported only once. */
  leftOver(): LeftOver {
    const left: LeftOver = { duties: [], setAside: [] };
    for (const key of this.store.keys(KEY_PREFIX).sort()) {
      const record = this.read(key);
      if (record.ok) {
        left.duties.push(record.duty);
        continue;
      }
      const movedTo = `${SET_ASIDE_PREFIX}${key.slice(KEY_PREFIX.length)}`;
      this.store.set(movedTo, this.store.get(key) ?? '');
      this.store.delete(key);
      left.setAside.push({ key, movedTo, problem: record.problem });
    }
    return left;
  }

  /** The duty of a previous run is taken care of (its `off` is kept in the outbox). */
  forget(chatId: string): void {
    this.store.delete(keyOf(chatId));
  }

  private read(key: string): { ok: true; duty: OpenDuty } | { ok: false; problem: string } {
    const value = this.store.get(key);
    if (value === null) return { ok: false, problem: 'no value' };
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      return { ok: false, problem: 'not JSON' };
    }
    const parsed = OpenDutySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, problem: `${issue?.path.join('.') || 'the record'}: ${issue?.message ?? 'invalid'}` };
    }
    if (keyOf(parsed.data.chatId) !== key) return { ok: false, problem: 'the chat id does not match its key' };
    return { ok: true, duty: parsed.data };
  }
}
