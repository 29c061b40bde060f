import { MEMBER_WITHOUT_RANK_ROLE } from '../../mock-panel/support/demo-users.js';

/** Casey Novak is a supervisor: the server.cfg lines that let her use /dutykick and /dutyrefresh <id>. */
export const SUPERVISOR_ACES = [
  'add_ace group.supervisor command.dutykick allow',
  'add_ace group.supervisor command.dutyrefresh.others allow',
  `add_principal identifier.chat:${MEMBER_WITHOUT_RANK_ROLE} group.supervisor`,
];

/** What lets the bridge give principals (Config.AcePermissions). */
export const MAY_CHANGE_PRINCIPALS = [
  'add_ace resource.bridge command.add_principal allow',
  'add_ace resource.bridge command.remove_principal allow',
];

/** An owner's rule on a principal of the bridge: /spikestrip for LSPD on duty. */
export const SPIKESTRIP_FOR_LSPD = 'add_ace bridge.lspd command.spikestrip allow';

export const PRINCIPAL_ACES = [...MAY_CHANGE_PRINCIPALS, SPIKESTRIP_FOR_LSPD];
