import type { BridgeServerExports } from '../../../shared/events.js';
import type { Duty } from '../../duty/index.js';
import type { BridgeRuntime, Logger, PlayerRegistry, ServerPort } from '../../kernel/index.js';
import type { StatusSnapshot } from '../../metrics/index.js';
import { registerAdminCommand } from './admin-command.js';
import { registerDutyKickCommand } from './dutykick-command.js';
import { offDutyCommand } from './offduty-command.js';
import { refreshCommand } from './refresh-command.js';
import { releaseCommand } from './release-command.js';
import { statusCommand } from './status-command.js';
import { statusReader } from './status-snapshot.js';

export interface BridgeCommandsWiring {
  port: ServerPort;
  runtime: Pick<BridgeRuntime, 'now' | 'wallNow'>;
  logger: Logger;
  players: PlayerRegistry;
  duty: Pick<Duty, 'onDutyPlayers'>;
  serverExports: Pick<BridgeServerExports, 'RefreshPlayer' | 'SetPlayerDuty'>;
  /** The panel's part of `bridge status`; undefined when the bridge is not configured. */
  panelStatus: () => StatusSnapshot['panel'];
  /** The community's part of `bridge status`; undefined when the bridge is not configured. */
  communityStatus: () => StatusSnapshot['community'];
  cachedProfiles: () => number;
  /** With BRIDGE_REDIS_URL: the duty calls held for Redis go without its confirmation (`bridge release`). */
  releaseHeld?: () => number;
}

/** The server's commands: `bridge` (status, refresh, offduty) for the console, `/dutykick` for supervisors. */
export function registerBridgeCommands(wiring: BridgeCommandsWiring): void {
  const { port, logger, players, serverExports } = wiring;
  const isConnected = (src: number) => players.get(src) !== undefined;
  registerAdminCommand(
    port,
    [
      statusCommand(statusReader(wiring)),
      refreshCommand({
        connectedPlayers: () => players.all().map((session) => session.src),
        isConnected,
        refresh: serverExports.RefreshPlayer,
      }),
      offDutyCommand({ isConnected, takeOffDuty: (src) => serverExports.SetPlayerDuty(src, false) }),
      ...(wiring.releaseHeld ? [releaseCommand(wiring.releaseHeld)] : []),
    ],
    { redact: (text) => logger.redact(text), onError: (message) => logger.error(message) },
  );
  registerDutyKickCommand({ port, logger, players, takeOffDuty: (src) => serverExports.SetPlayerDuty(src, false) });
}
