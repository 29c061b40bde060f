import type { Subscription } from 'rxjs';
import { type DutyOwners, shiftOf } from '../community/duty-owner-api.js';
import type { Duty } from './duty.js';
import type { DutyStore } from './model/duty-store.js';

/**
 * Redis as a source of intents, for the session holding the account here, in the account's lane like any other: a
 * duty the community settled on another server's claim becomes `takenElsewhere` (decide ends it without an `off`),
 * and a claim that must send its `on` again becomes `restate`. Only the shift Redis named is touched: a later duty of
 * the same account here is another claim.
 */
export const followDutyOwners = (
  owners: Pick<DutyOwners, 'takenElsewhere$' | 'restate$'>,
  store: Pick<DutyStore, 'model'>,
  duty: Pick<Duty, 'submit'>,
): Subscription => {
  const holderOf = (chatId: string, shift: string) => {
    const holder = store.model.holders.get(chatId);
    const since = holder ? store.model.sessions.get(holder.src)?.since : undefined;
    return holder && since !== undefined && since !== null && shiftOf(holder.src, since) === shift
      ? holder.src
      : undefined;
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
