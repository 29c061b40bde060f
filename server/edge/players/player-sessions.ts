import { OFF_DUTY } from '../../duty/index.js';
import type { PlayerRegistry, PlayerSession, ServerPort } from '../../kernel/index.js';
import { publishDutyState } from '../state/bridge-duty-key.js';
import type { StateBagGuard } from '../state/state-bag-guard.js';

export interface SessionOpenerOptions {
  players: PlayerRegistry;
  port: Pick<ServerPort, 'playerName' | 'playerIdentifiers'>;
  stateBags: Pick<StateBagGuard, 'publish'>;
}

/**
 * The player's session, opened the first time the bridge hears of them (a join, a client that is ready, a player
 * already online at start): their bag says off duty from the start, so a forged value never stands unanswered.
 */
export const sessionOpener =
  ({ players, port, stateBags }: SessionOpenerOptions) =>
  (src: number): PlayerSession => {
    const known = players.get(src);
    if (known) return known;
    publishDutyState((id, key, value) => stateBags.publish(id, key, value), src, OFF_DUTY);
    return players.add(src, port.playerName(src), port.playerIdentifiers(src));
  };

/** The player as the duty service needs them: only a player with a chat account can go on duty. */
export const dutyPlayerOf =
  (players: PlayerRegistry) =>
  (src: number): { chatId: string; name: string } | undefined => {
    const session = players.get(src);
    return session?.chat.ok ? { chatId: session.chat.chatId, name: session.name } : undefined;
  };
