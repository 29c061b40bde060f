// In dist/redis.cjs: the duty's side of a community, wired here so that dist/server.js carries none of it (its size is
// capped: test/build/bundle-size.test.ts).
import type { Observable, Subscription } from 'rxjs';
import type { Duty, DutyStore, HeldShiftEnd, Outbox } from '../duty/index.js';
import { shiftOf } from '../duty/index.js';
import type { PlayerRegistry } from '../kernel/index.js';
import type { CommunityDuty, CommunityDutyWiring, DutyOwners } from './community.js';

export const communityDuty = (owners: DutyOwners, wiring: CommunityDutyWiring): CommunityDuty => ({
  takeHeldElsewhere: takeHeldElsewhere(owners, wiring.players, wiring.store, wiring.duty),
  follow() {
    const subscription = followDutyOwners(owners, wiring.store, wiring.duty);
    subscription.add(endLapsedServersDuties(owners, wiring.outbox));
    subscription.add(releaseEndedShifts(wiring.heldEnded$, owners));
    return subscription;
  },
});

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

/**
 * Peers end a crashed server's shifts (issue 30): a server whose liveness lapsed was taken by this one, atomically, so
 * each of its duties is ended at the panel from here. Each `off` goes through this server's outbox (kept in its KVP,
 * at duty priority), fenced by the lapsed server's claim: it is sent only while that claim still owns the account and
 * that server is still gone. An `on` it sent that died with it before it was claimed is ended unclaimed: only while
 * no live claim holds the account, and that server is still gone.
 */
export const endLapsedServersDuties = (
  owners: Pick<DutyOwners, 'lapsed$'>,
  outbox: Pick<Outbox, 'enqueue'>,
): Subscription =>
  owners.lapsed$.subscribe(({ server, duties }) => {
    for (const { chatId, shift, departmentId } of duties) {
      const body = departmentId === undefined ? { chatId } : { chatId, departmentId };
      void outbox.enqueue({
        action: 'off',
        body,
        fence: shift === undefined ? { unclaimed: true, server } : { shift, server },
      });
    }
  });

/** A held shift ended without its player (its fenced `off`, if any, is in the outbox): its claim is let go here. */
export const releaseEndedShifts = (
  heldEnded$: Observable<HeldShiftEnd>,
  owners: Pick<DutyOwners, 'release'>,
): Subscription =>
  heldEnded$.subscribe(({ chatId, src, since }) => {
    if (since !== null) owners.release(chatId, shiftOf(src, since));
  });
