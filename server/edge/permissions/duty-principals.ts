import { CHAT_IDENTIFIER_PREFIX } from '../../../shared/contract/index.js';

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
