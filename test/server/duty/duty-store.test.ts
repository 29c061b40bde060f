import { describe, expect, it } from 'vitest';
import { DutyStore } from '../../../server/duty/duty-interpreter.js';
import type { DutyChange } from '../../../server/duty/duty-model.js';
import { applyUpdate, type DutyState, EMPTY_DUTY_MODEL, OFF_DUTY } from '../../../server/duty/duty-model.js';

const onDuty = (departmentId: number): DutyState => ({
  onDuty: true,
  departmentId,
  departmentSlug: `dept${departmentId}`,
  departmentName: `Department ${departmentId}`,
  rankId: 2,
  since: 1,
});
const transition = (src: number, next: DutyState, previous: DutyState = OFF_DUTY): DutyChange =>
  next.onDuty
    ? {
        kind: 'on',
        src,
        chatId: String(src),
        previous,
        next,
        department: { departmentId: 1, slug: 'dept1', name: 'd', rank: { id: 2, name: 'r' }, data: {} as never },
      }
    : { kind: 'off', src, chatId: String(src), previous, next, reason: 'request' };

/** Commits a transition as the interpreter does: with the model a decision computed from what the store held. */
function commitTransition(store: DutyStore, change: DutyChange): void {
  const update = { kind: 'transition' as const, change };
  const base = store.model;
  store.commit(update, applyUpdate(base, update), base);
}

describe('DutyStore', () => {
  it('keeps an update made meanwhile by another decision (an effect of an earlier step) instead of overwriting it', () => {
    const store = new DutyStore();
    const update = { kind: 'transition' as const, change: transition(7, onDuty(1)) };
    const base = store.model;
    const after = applyUpdate(base, update);
    // Before the decision's update is committed, an effect of its previous step committed player 8's duty.
    commitTransition(store, transition(8, onDuty(3)));
    store.commit(update, after, base);
    expect(store.state(7)).toEqual(onDuty(1));
    expect(store.state(8)).toEqual(onDuty(3));
  });

  it('lists the players on duty in the order they were first seen, the same array until a duty changes', () => {
    const store = new DutyStore();
    commitTransition(store, transition(9, onDuty(1)));
    commitTransition(store, transition(2, onDuty(1)));
    commitTransition(store, transition(5, OFF_DUTY));
    const listed = store.onDutyPlayers();
    expect(listed.map(([src]) => src)).toEqual([9, 2]);
    expect(store.onDutyPlayers()).toBe(listed);
    commitTransition(store, transition(9, OFF_DUTY, onDuty(1)));
    expect(store.onDutyPlayers().map(([src]) => src)).toEqual([2]);
  });

  it('announces each transition once it is committed, and not what it held before anyone listened', () => {
    const store = new DutyStore();
    commitTransition(store, transition(7, onDuty(1)));
    const heard: Array<[number, boolean]> = [];
    const subscription = store.dutyChanges$.subscribe((change) =>
      heard.push([change.src, store.state(change.src).onDuty]),
    );
    expect(heard).toEqual([]);
    commitTransition(store, transition(8, onDuty(1)));
    store.commit({ kind: 'leave', src: 8 }, applyUpdate(store.model, { kind: 'leave', src: 8 }), store.model);
    expect(heard).toEqual([[8, true]]);
    subscription.unsubscribe();
    expect(EMPTY_DUTY_MODEL.sessions.size).toBe(0);
  });
});
