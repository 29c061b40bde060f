import type { BridgeServerExports } from '../../../shared/events.js';
import type { Messages } from '../../../shared/locale.js';
import type { Duty } from '../../duty/index.js';
import type { PlayerRegistry, ServerPort } from '../../kernel/index.js';
import { type Profiles, payloadOf } from '../../profiles/index.js';
import { createServerExports } from './server-exports.js';

export interface ExportsWiring {
  port: Pick<ServerPort, 'registerExport'>;
  duty: Pick<Duty, 'state' | 'onDutyPlayers' | 'request'>;
  players: PlayerRegistry;
  profiles: Pick<Profiles, 'cached' | 'refresh'>;
  messages: Messages;
  /** GetCommunityOnDutyCount's answer. */
  communityCount: (slug: unknown) => number;
}

/** Registers `exports.bridge:*` on the server; returns them for the admin command, which does the same things. */
export function registerServerExports({
  port,
  duty,
  players,
  profiles,
  messages,
  communityCount,
}: ExportsWiring): BridgeServerExports {
  const serverExports = createServerExports({
    dutyState: (src) => duty.state(src),
    onDutyPlayers: () => duty.onDutyPlayers(),
    isKnownPlayer: (src) => players.get(src) !== undefined,
    cachedProfile: (src) => {
      const entry = profiles.cached(src);
      return entry ? payloadOf(entry, messages) : undefined;
    },
    setDuty: (src, on, departmentId) =>
      duty.request(on ? { kind: 'on', src, departmentId } : { kind: 'off', src, reason: 'admin' }),
    takeOffDuty: (src) => duty.request({ kind: 'off', src, reason: 'admin' }),
    refresh: async (src) => (await profiles.refresh(src)).payload,
    communityCount,
  });
  for (const [name, fn] of Object.entries(serverExports)) port.registerExport(name, fn);
  return serverExports;
}
