import type { Duty, DutyStore } from '../duty/index.js';
import type { PlayerRegistry } from '../kernel/index.js';
import type { DutyOwners } from './duty-owner-api.js';

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
