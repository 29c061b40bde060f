import { MEMBER_WITHOUT_RANK_ROLE } from '../../mock-panel/support/demo-users.js';

/** Casey Novak is a supervisor: the server.cfg lines that let her use /dutykick and /dutyrefresh <id>. */
export const SUPERVISOR_ACES = [
  'add_ace group.supervisor command.dutykick allow',
  'add_ace group.supervisor command.dutyrefresh.others allow',
  `add_principal identifier.chat:${MEMBER_WITHOUT_RANK_ROLE} group.supervisor`,
];

/** What lets the bridge give principals (Config.AcePermissions), and an owner's rule on one of them. */
export const PRINCIPAL_ACES = [
  'add_ace resource.bridge command.add_principal allow',
  'add_ace resource.bridge command.remove_principal allow',
  'add_ace bridge.lspd command.spikestrip allow',
];
