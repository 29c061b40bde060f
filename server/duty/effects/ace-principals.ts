import type { PrincipalGrants } from '../../edge/index.js';
import { dutyPrincipals, isPrincipalSlug } from '../../edge/index.js';
import type { Logger } from '../../kernel/index.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

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
