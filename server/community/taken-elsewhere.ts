import type { Subscription } from 'rxjs';
import type { Duty, DutyStore } from '../duty/index.js';
import { shiftOf } from '../duty/index.js';
import type { DutyOwners } from './duty-owner-api.js';

/**
 * Redis as a source of intents, for the session holding the account here (or whose shift is held here after its game
 * crashed), in the account's lane like any other: a duty the community settled on another server's claim becomes
 * `takenElsewhere` (decide ends it without an `off`), and a claim that must send its `on` again becomes `restate`.
 * Only the shift Redis named is touched: a later duty of the same account here is another claim.
 */
export const followDutyOwners = (
  owners: Pick<DutyOwners, 'takenElsewhere$' | 'restate$'>,
  store: Pick<DutyStore, 'model'>,
  duty: Pick<Duty, 'submit'>,
): Subscription => {
  const holderOf = (chatId: string, shift: string) => {
    const { holders, sessions, held } = store.model;
    const holder = holders.get(chatId);
    const since = holder ? sessions.get(holder.src)?.since : undefined;
    if (holder && since !== undefined && since !== null && shiftOf(holder.src, since) === shift) return holder.src;
    const kept = held.get(chatId);
    return kept && kept.state.since !== null && shiftOf(kept.src, kept.state.since) === shift ? kept.src : undefined;
  };
  const subscription = owners.takenElsewhere$.subscribe(({ chatId, shift, reason, panelOff }) => {
    const src = holderOf(chatId, shift);
    if (src !== undefined) duty.submit({ kind: 'takenElsewhere', src, chatId, reason, panelOff });
  });
  subscription.add(
    owners.restate$.subscribe(({ chatId, shift }) => {
      const src = holderOf(chatId, shift);
      if (src !== undefined) duty.submit({ kind: 'restate', src, chatId });
    }),
  );
  return subscription;
};
