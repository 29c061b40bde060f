import type { ProfilePayload } from '../../../shared/events.js';
import type { Logger, PlayerRegistry, ServerPort } from '../../kernel/index.js';
import { describeRefresh } from '../commands/bridge-command.js';
import { parsePlayerId, playerLabel } from '../commands/dutykick-command.js';
import type { ClientEventLimits } from './client-event-limits.js';

/** What a supervisor needs for `/dutyrefresh <id>`; plain `/dutyrefresh` stays everyone's. */
export const REFRESH_OTHERS_ACE = 'command.dutyrefresh.others';

export interface RefreshOtherRequestDeps {
  port: Pick<ServerPort, 'isPlayerAceAllowed' | 'reply'>;
  players: PlayerRegistry;
  limits: ClientEventLimits;
  logger: Logger;
  /** Fetches the player's profile bypassing the cache and their cooldown, and sends it to them (RefreshPlayer). */
  refresh(src: number): Promise<ProfilePayload>;
}

/**
 * `/dutyrefresh <id>`: the client sends the id as typed; the server decides. The sender must hold the ACE
 * `command.dutyrefresh.others` (asked of FXServer for this player, never of the client), else nothing is fetched and
 * nobody else learns of it. Every use, refused or not, is logged with who did it.
 */
export const refreshOtherRequestHandler =
  ({ port, players, limits, logger, refresh }: RefreshOtherRequestDeps) =>
  async (src: number, args: unknown[]): Promise<void> => {
    if (!players.get(src) || !limits.admit('refreshOther', src)) return;
    const reply = (line: string) => port.reply(src, line);
    const typed = typeof args[0] === 'string' || typeof args[0] === 'number' ? String(args[0]) : undefined;
    const by = playerLabel(src, players);
    if (!port.isPlayerAceAllowed(src, REFRESH_OTHERS_ACE)) {
      logger.info(`${by} may not refresh other players (/dutyrefresh <id>): no ACE ${REFRESH_OTHERS_ACE}`);
      reply(`you may not refresh other players (the ACE ${REFRESH_OTHERS_ACE} is needed)`);
      return;
    }
    const id = parsePlayerId(typed, (candidate) => players.get(candidate) !== undefined);
    if (id === undefined) {
      reply(`no connected player "${typed?.slice(0, 20) ?? ''}"; usage: /dutyrefresh <player id>`);
      return;
    }
    logger.info(`${by} refreshes ${playerLabel(id, players)} (/dutyrefresh ${id})`);
    reply(describeRefresh(id, await refresh(id)));
  };
