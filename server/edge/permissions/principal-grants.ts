import { ChatIdSchema } from '../../../shared/contract/index.js';
import * as z from '../../../shared/zod-mini.js';
import type { KeyValueStore, Logger } from '../../kernel/index.js';
import { type KeptPlace, readKeptRecord, takeKeptRecords } from '../../kernel/index.js';
import type { AceConsole } from './ace-console.js';
import { accountPrincipal, DUTY_PRINCIPAL, identifierPrincipal } from './duty-principals.js';

// Unreadable records move to the aside prefix: kept for whoever wants to look, never read again.
const PLACE: KeptPlace = { prefix: 'ace-principals:', asidePrefix: 'ace-principals-set-aside:' };

const GrantRecordSchema = z.object({
  chatId: ChatIdSchema,
  /** The principals the account's bridge principal is in (never anything outside the bridge's own names). */
  principals: z.array(z.string().check(z.regex(DUTY_PRINCIPAL))),
});

type GrantRecord = z.infer<typeof GrantRecordSchema>;

const keyOf = (chatId: string) => `${PLACE.prefix}${chatId}`;

interface Held {
  /** The session whose duty the grant is: another session's going off duty leaves it. */
  src: number;
  principals: readonly string[];
}

/**
 * The ACE principals the bridge gives chat accounts on duty, and takes back. A grant is written to KVP before the
 * first add_principal and deleted after the last remove_principal, so what a run that died without its stop left
 * is known at the next start, and removed then (FXServer keeps principals until its process ends: a resource that
 * stopped without taking them back leaves them to players off duty).
 *
 * Only pairs with the account's own bridge principal on one side are ever added or removed (see accountPrincipal):
 * whatever an owner granted by hand stays.
 */
export class PrincipalGrants {
  private readonly held = new Map<string, Held>();
  /** Accounts whose principals could not be taken back yet (the bridge lacks the ACE); their records stay. */
  private readonly pending = new Set<string>();
  /**
   * Accounts on duty whose principals could not be given (the bridge lacked the ACEs): given once it may, since
   * FXServer says nothing when an owner adds the ACEs in the live console.
   */
  private readonly refused = new Map<string, Held>();

  constructor(
    private readonly aces: AceConsole,
    private readonly store: KeyValueStore,
    private readonly logger: Logger,
  ) {}

  /**
   * The account's session `src` holds these principals now: what it held before and no longer does is removed, the
   * rest added. The account's identifier joins the bridge principal last, so a player never holds half a duty.
   */
  grant(chatId: string, src: number, principals: readonly string[]): void {
    this.retryPending();
    this.refused.set(chatId, { src, principals: [...principals] });
    this.retryRefused();
  }

  private give(chatId: string, src: number, principals: readonly string[]): void {
    const before = this.held.get(chatId)?.principals ?? [];
    const account = accountPrincipal(chatId);
    this.write({ chatId, principals: [...new Set([...before, ...principals])] });
    for (const principal of principals) if (!before.includes(principal)) this.aces.addPrincipal(account, principal);
    if (!this.held.has(chatId)) this.aces.addPrincipal(identifierPrincipal(chatId), account);
    for (const principal of before) if (!principals.includes(principal)) this.aces.removePrincipal(account, principal);
    this.held.set(chatId, { src, principals: [...principals] });
    // Synced writes cost: the record is rewritten only when it named principals that are gone now.
    if (before.some((principal) => !principals.includes(principal)))
      this.write({ chatId, principals: [...principals] });
    this.logger.debug(`player ${src} holds the ACE principals ${principals.join(', ')}`);
  }

  /** The session `src` went off duty: the account's principals go, unless another session of it holds them now. */
  revoke(chatId: string, src: number): void {
    this.retryPending();
    if (this.refused.get(chatId)?.src === src) this.refused.delete(chatId);
    this.retryRefused();
    const held = this.held.get(chatId);
    if (!held || held.src !== src) return;
    this.held.delete(chatId);
    this.removeAll({ chatId, principals: [...held.principals] }, `player ${src}`);
  }

  /**
   * At start, before anyone is on duty: takes back what the last run left (a crash, or a stop without the ACE to
   * remove them). Returns how many accounts it found.
   */
  endLeftOver(): number {
    const { records, setAside } = takeKeptRecords(this.store, PLACE, GrantRecordSchema, (record, key) =>
      keyOf(record.chatId) === key ? undefined : 'the chat id does not match its key',
    );
    for (const { key, movedTo, problem } of setAside) {
      this.logger.error(
        `the ACE principal record ${key} could not be read (${problem}); it is set aside as ${movedTo}`,
      );
    }
    if (records.length === 0) return 0;
    this.logger.info(
      `the last run left the ACE principals of ${records.length} chat account(s) in place (a crash?); they are removed now`,
    );
    for (const record of records) this.removeAll(record, `chat account ${record.chatId}`);
    return records.length;
  }

  /** Accounts holding principals, or waiting for them, this run: zero once everyone is off duty. */
  get size(): number {
    return this.held.size + this.refused.size;
  }

  private removeAll(record: GrantRecord, whose: string): void {
    if (!this.may('remove', `the ACE principals of ${whose} stay until then`)) {
      this.pending.add(record.chatId);
      return;
    }
    const account = accountPrincipal(record.chatId);
    this.aces.removePrincipal(identifierPrincipal(record.chatId), account);
    for (const principal of record.principals) this.aces.removePrincipal(account, principal);
    this.store.delete(keyOf(record.chatId));
    this.pending.delete(record.chatId);
  }

  /** Principals that could not be taken back are, as soon as the bridge may: at the next change of anyone's duty. */
  private retryPending(): void {
    if (this.pending.size === 0 || this.aces.missingAces('remove').length > 0) return;
    for (const chatId of [...this.pending]) {
      const read = readKeptRecord(this.store.get(keyOf(chatId)), GrantRecordSchema);
      if (read.ok) this.removeAll(read.record, `chat account ${chatId}`);
      else this.pending.delete(chatId);
    }
  }

  /** Principals refused for want of the ACEs are given as soon as the bridge may: at the next change of anyone's duty. */
  private retryRefused(): void {
    if (this.refused.size === 0 || !this.may('add', 'players on duty get no ACE principals until then')) return;
    for (const [chatId, { src, principals }] of [...this.refused]) {
      this.refused.delete(chatId);
      this.give(chatId, src, principals);
    }
  }

  /** Whether the bridge may run the commands; if not, says once (until it may again) what server.cfg lacks. */
  private may(action: 'add' | 'remove', consequence: string): boolean {
    const missing = this.aces.missingAces(action);
    const key = `ace-principals-missing:${action}`;
    if (missing.length === 0) {
      this.logger.forget(key);
      return true;
    }
    const commands = action === 'add' ? 'add_principal and remove_principal' : 'remove_principal';
    const lines = missing.map((line) => `\`${line}\``).join(' and ');
    this.logger.once(key, 'error', `the bridge may not run ${commands}: add ${lines} to server.cfg (${consequence})`);
    return false;
  }

  private write(record: GrantRecord): void {
    this.store.set(keyOf(record.chatId), JSON.stringify(record));
  }
}
