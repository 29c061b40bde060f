import type { ProfilePayload } from '../../../shared/events.js';
import type { Subcommand } from './admin-command.js';
import { parsePlayerId } from './player-target.js';

export interface RefreshCommandDeps {
  connectedPlayers(): number[];
  isConnected(src: number): boolean;
  /** Fetches the player's profile bypassing the cache and the player's cooldown, and sends it to them. */
  refresh(src: number): Promise<ProfilePayload>;
}

/** A refreshed profile in one line: `player 5: lspd (Sergeant), bcso (Deputy)`. */
export const describeRefresh = (src: number, profile: ProfilePayload): string =>
  profile.ok
    ? `player ${src}: ${profile.departments.map((d) => `${d.slug} (${d.rank.name})`).join(', ') || 'no departments'}`
    : `player ${src}: ${profile.error}`;

/** `bridge refresh <id|all>`: what /dutyrefresh does, for one player or everyone online, without the cooldown. */
export function refreshCommand(deps: RefreshCommandDeps): Subcommand {
  return {
    name: 'refresh',
    usage: '<player id|all>',
    summary: 'fetch departments and ranks again, bypassing the cache',
    run({ reply }, [target]) {
      const ids =
        target === 'all'
          ? deps.connectedPlayers()
          : [parsePlayerId(target, deps.isConnected)].filter((id) => id !== undefined);
      if (ids.length === 0) {
        reply(
          target === 'all'
            ? 'no players are online'
            : `no connected player "${target ?? ''}"; usage: bridge refresh <player id|all>`,
        );
        return;
      }
      reply(`refreshing ${ids.length} player(s)`);
      for (const src of ids) {
        void deps.refresh(src).then(
          (profile) => reply(describeRefresh(src, profile)),
          (error: unknown) => reply(`player ${src}: refresh failed (${String(error)})`),
        );
      }
    },
  };
}
