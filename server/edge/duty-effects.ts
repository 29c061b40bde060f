import type { DutyEffect } from '../duty/index.js';
import { dutyEffect } from '../duty/index.js';
import type { Logger } from '../kernel/index.js';
import { dutyPrincipals, isPrincipalSlug } from './permissions/duty-principals.js';
import type { PrincipalGrants } from './permissions/principal-grants.js';
import { publishDutyState } from './state/bridge-duty-key.js';
import type { StateBagGuard } from './state/state-bag-guard.js';

// The duty effects that reach FiveM: the edge follows the duty slice's changes, which never import the edge.

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

/** Each player's duty on their replicated state bag, through the guard that puts back a client's own writes. */
export const publishDutyStateBags = (stateBags: Pick<StateBagGuard, 'publish'>, logger: Logger): DutyEffect =>
  dutyEffect('state bag', logger, ({ src, next }) =>
    publishDutyState((id, key, value) => stateBags.publish(id, key, value), src, next),
  );
