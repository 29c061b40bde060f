// The ACE principals of players on duty (Config.AcePermissions): their names, the console commands that grant them,
// the grants kept in KVP, and the duty effect that drives them (the duty slice never imports the edge).
import { CHAT_IDENTIFIER_PREFIX, ChatIdSchema } from '../../shared/contract/index.js';
import * as z from '../../shared/zod-mini.js';
import type { DutyEffect } from '../duty/index.js';
import { dutyEffect } from '../duty/index.js';
import type { KeyValueStore, Logger, ServerPort } from '../kernel/index.js';
import { type KeptPlace, readKeptRecord, takeKeptRecords } from '../kernel/index.js';

/** Every player on duty, whatever the department. */
export const ON_DUTY_PRINCIPAL = 'bridge.onduty';

// A slug becomes part of a principal name and of a console line: only letters, digits, `_` and `-`. A dot would
// make `bridge.<slug>` read as another department's rank principal; a space, a quote or a `;` would change the line.
const PRINCIPAL_SLUG = /^[A-Za-z0-9_-]+$/;

/** Whether a department slug can name a principal (`bridge.<slug>`). */
export const isPrincipalSlug = (slug: string): boolean => PRINCIPAL_SLUG.test(slug);

/** The principals of a duty: `bridge.onduty`, `bridge.<slug>` and `bridge.<slug>.<rankId>`, as documented. */
export function dutyPrincipals(slug: string | null, rankId: number | null): string[] {
  if (slug === null || !isPrincipalSlug(slug)) return [ON_DUTY_PRINCIPAL];
  return [ON_DUTY_PRINCIPAL, `bridge.${slug}`, ...(rankId === null ? [] : [`bridge.${slug}.${rankId}`])];
}

/** Names dutyPrincipals() can give, and nothing else: what a kept record may ask the bridge to remove. */
export const DUTY_PRINCIPAL = /^bridge\.(onduty|[A-Za-z0-9_-]+(\.\d+)?)$/;

/** The FXServer principal of a player's chat identifier. */
export const identifierPrincipal = (chatId: string): string => `identifier.${CHAT_IDENTIFIER_PREFIX}${chatId}`;

/**
 * The bridge's own principal for a chat account: the account's identifier is in it while on duty, and it is in the
 * duty's principals. FXServer's remove_principal removes every entry of a pair, whoever added it; the bridge only
 * ever adds and removes pairs with this principal on one side, so an owner's own `add_principal identifier.x
 * bridge.lspd` is never touched. The `:` keeps it apart from any name dutyPrincipals() gives.
 */
export const accountPrincipal = (chatId: string): string => `bridge.account.${CHAT_IDENTIFIER_PREFIX}${chatId}`;

/** What the bridge asks of FXServer's security context: principal inheritance, through the server console. */
export interface AceConsole {
  /** The server.cfg lines the bridge still needs for this (empty: it may). */
  missingAces(action: 'add' | 'remove'): string[];
  addPrincipal(child: string, parent: string): void;
  removePrincipal(child: string, parent: string): void;
}

// Nothing but a principal name may reach the console line: no space, quote, `;` or comment that would change it.
const PRINCIPAL_NAME = /^[A-Za-z0-9_.:-]+$/;

const commandLine = (command: string, child: string, parent: string): string => {
  for (const name of [child, parent]) {
    if (!PRINCIPAL_NAME.test(name)) throw new Error(`"${name}" cannot be a principal name in a console command`);
  }
  return `${command} ${child} ${parent}`;
};

/**
 * add_principal / remove_principal through ExecuteCommand. FXServer runs a resource's console line as the principal
 * `resource.<name>`, which needs the ACE of each command (`command.add_principal`, `command.remove_principal`), or
 * the line is refused with only "Access denied" in the console; so the bridge asks first.
 */
export function createAceConsole(
  port: Pick<ServerPort, 'resourceName' | 'executeCommand' | 'isPrincipalAceAllowed'>,
): AceConsole {
  const resource = `resource.${port.resourceName}`;
  const needed = (command: string): string[] =>
    port.isPrincipalAceAllowed(resource, `command.${command}`) ? [] : [`add_ace ${resource} command.${command} allow`];
  return {
    missingAces: (action) =>
      action === 'add' ? [...needed('add_principal'), ...needed('remove_principal')] : needed('remove_principal'),
    addPrincipal: (child, parent) => port.executeCommand(commandLine('add_principal', child, parent)),
    removePrincipal: (child, parent) => port.executeCommand(commandLine('remove_principal', child, parent)),
  };
}

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

/**
 * Config.AcePermissions: a player on duty is in `bridge.onduty`, `bridge.<slug>` and `bridge.<slug>.<rankId>`, so an
 * owner's `add_ace bridge.lspd command.spikestrip allow` follows duty. A new rank replaces the rank's principal;
 * going off duty, dropping or the bridge stopping takes them all back.
 */
export const grantDutyPrincipals = (grants: Pick<PrincipalGrants, 'grant' | 'revoke'>, logger: Logger): DutyEffect =>
  dutyEffect('ACE principals', logger, (change) => {
    const { src, chatId, next } = change;
    if (chatId === undefined) return;
    if (change.kind === 'off') {
      grants.revoke(chatId, src);
      return;
    }
    const slug = next.departmentSlug;
    if (slug !== null && !isPrincipalSlug(slug)) {
      logger.once(
        `ace-principal-slug:${slug}`,
        'warn',
        `the department slug ${JSON.stringify(slug)} cannot name an ACE principal (letters, digits, _ and - only): its players on duty get bridge.onduty alone`,
      );
    }
    grants.grant(chatId, src, dutyPrincipals(slug, next.rankId));
  });
