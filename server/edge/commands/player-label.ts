import { panelPlayerName } from '../../../shared/contract/player-name.js';
import type { PlayerRegistry } from '../../kernel/index.js';

/**
 * Who did something, for a log line: `the console`, or `player 3 (Sam Okafor)`. The name is the player's own text,
 * so it is cleaned of control characters first: a newline in a name must not forge another log line.
 */
export function playerLabel(src: number, players: Pick<PlayerRegistry, 'get'>): string {
  if (src === 0) return 'the console';
  const name = panelPlayerName(players.get(src)?.name);
  return name === undefined ? `player ${src}` : `player ${src} (${name})`;
}
