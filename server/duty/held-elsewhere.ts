import type { DutyOwners } from '../community/duty-owner-api.js';
import type { PlayerRegistry } from '../players/player-registry.js';
import type { Duty } from './duty.js';
import type { DutyStore } from './model/duty-store.js';

/**
 * Issue 32 across a community: a session that joins takes over its account's shift held on another server (its game
 * crashed there, Config.ResumeWindowMs), when Redis's record says it is held and its window is not over. The claim is
 * taken in Redis first, in one atomic step, so exactly one server can take it; decide then holds it here for this
 * session. A shift held on this server is this server's to resume (decide's `resume`).
 */
export const takeHeldElsewhere =
  (
    owners: Pick<DutyOwners, 'takeHeld'>,
    players: Pick<PlayerRegistry, 'chatId'>,
    store: Pick<DutyStore, 'model'>,
    duty: Pick<Duty, 'submit'>,
  ) =>
  async (src: number): Promise<void> => {
    const chatId = players.chatId(src);
    const { held, holders } = store.model;
    if (chatId === undefined || held.has(chatId) || holders.has(chatId)) return;
    const took = await owners.takeHeld(chatId, src).catch(() => undefined);
    if (took) duty.submit({ kind: 'heldElsewhere', src, chatId, ...took });
  };
