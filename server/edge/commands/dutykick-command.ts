// `/dutykick`, a supervisor's command in game, and how any command reads a typed player id and names a player.
import { panelPlayerName } from '../../../shared/contract/player-name.js';
import type { DutyOutcome } from '../../../shared/events.js';
import type { Logger, PlayerRegistry, ServerPort } from '../../kernel/index.js';

/** Restricted: FXServer lets only the console and principals with the ACE `command.dutykick` run it. */
export const DUTY_KICK_COMMAND = 'dutykick';

export interface DutyKickWiring {
  port: Pick<ServerPort, 'registerCommand' | 'reply'>;
  logger: Logger;
  players: Pick<PlayerRegistry, 'get'>;
  /** Takes the player off duty as an administrator (reason `admin`): the panel call, the events, their notice. */
  takeOffDuty(src: number): Promise<DutyOutcome>;
}

/**
 * `/dutykick <id>`: a supervisor in game takes a player off duty, as `bridge offduty` does from the console. Only
 * the console and principals with the ACE `command.dutykick` may run it; every use is logged with who did it.
 */
export function registerDutyKickCommand({ port, logger, players, takeOffDuty }: DutyKickWiring): void {
  port.registerCommand(
    DUTY_KICK_COMMAND,
    (src, [target]) => {
      const reply = (line: string) => port.reply(src, line);
      const id = parsePlayerId(target, (candidate) => players.get(candidate) !== undefined);
      if (id === undefined) {
        reply(`no connected player "${target ?? ''}"; usage: /${DUTY_KICK_COMMAND} <player id>`);
        return;
      }
      const by = playerLabel(src, players);
      const whom = playerLabel(id, players);
      takeOffDuty(id).then(
        (outcome) => {
          if (!outcome.ok) {
            logger.warn(`${by} could not take ${whom} off duty (/${DUTY_KICK_COMMAND}): ${outcome.error}`);
            reply(`player ${id}: ${outcome.error} (${outcome.message})`);
          } else if (outcome.changed) {
            logger.info(`${by} took ${whom} off duty (/${DUTY_KICK_COMMAND})`);
            reply(`player ${id} is now off duty`);
          } else {
            logger.info(`${by} ran /${DUTY_KICK_COMMAND} on ${whom}, who was not on duty`);
            reply(`player ${id} was not on duty`);
          }
        },
        (error: unknown) => {
          logger.error(`/${DUTY_KICK_COMMAND} ${id} by ${by} failed: ${String(error)}`);
          reply(`/${DUTY_KICK_COMMAND} failed; see the server console`);
        },
      );
    },
    true,
  );
}

/** A player id typed in the console: a positive whole number of a connected player, or undefined. */
export function parsePlayerId(text: string | undefined, isConnected: (src: number) => boolean): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const src = Number(text);
  return src > 0 && isConnected(src) ? src : undefined;
}

/**
 * Who did something, for a log line: `the console`, or `player 3 (Sam Okafor)`. The name is the player's own text,
 * so it is cleaned of control characters first: a newline in a name must not forge another log line.
 */
export function playerLabel(src: number, players: Pick<PlayerRegistry, 'get'>): string {
  if (src === 0) return 'the console';
  const name = panelPlayerName(players.get(src)?.name);
  return name === undefined ? `player ${src}` : `player ${src} (${name})`;
}
