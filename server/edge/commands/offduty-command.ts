import type { DutyOutcome } from '../../../shared/events.js';
import type { Subcommand } from './admin-command.js';
import { parsePlayerId } from './player-target.js';

export interface OffDutyCommandDeps {
  isConnected(src: number): boolean;
  /** Takes the player off duty as an administrator: the panel call, the events, the player's notification. */
  takeOffDuty(src: number): Promise<DutyOutcome>;
}

/** `bridge offduty <id>`: ends a player's duty, e.g. one who went away from the keyboard on duty. */
export function offDutyCommand(deps: OffDutyCommandDeps): Subcommand {
  return {
    name: 'offduty',
    usage: '<player id>',
    summary: 'take a player off duty',
    run({ reply }, [target]) {
      const src = parsePlayerId(target, deps.isConnected);
      if (src === undefined) {
        reply(`no connected player "${target ?? ''}"; usage: bridge offduty <player id>`);
        return;
      }
      void deps.takeOffDuty(src).then((outcome) => {
        if (!outcome.ok) reply(`player ${src}: ${outcome.error} (${outcome.message})`);
        else reply(outcome.changed ? `player ${src} is now off duty` : `player ${src} was not on duty`);
      });
    },
  };
}
