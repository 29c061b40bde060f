import type { OnCall } from '../duty-call.js';
import type { DutyChange } from '../duty-change.js';
import { type DutyState, OFF_DUTY } from '../duty-state.js';
import { PersistentMap } from './persistent-map.js';

/** The session holding a chat account's duty, and the `on` that made it so (to assert it again at the panel). */
export interface Holder {
  readonly src: number;
  readonly call: OnCall;
}

/**
 * Everything there is to the players' duty, as one immutable value: `decide` reads it and returns the next one, the
 * duty store holds it, and nothing else changes it.
 */
export interface DutyModel {
  /** Each session's duty, by server id (a session nothing happened to yet is off duty). */
  readonly sessions: PersistentMap<number, DutyState>;
  /**
   * Who holds each chat account's duty: the panel keeps one duty per account, so at most one session of it is on
   * duty in game, and only that session's calls speak for the account at the panel.
   */
  readonly holders: PersistentMap<string, Holder>;
  /** Sessions that dropped: they never go on duty again, and an `on` of theirs still waiting is given up. */
  readonly leaving: PersistentMap<number, true>;
  /** The transition that made this model, when one did: `dutyChanges$` announces it. */
  readonly change: DutyChange | null;
}

export const EMPTY_DUTY_MODEL: DutyModel = Object.freeze({
  sessions: PersistentMap.empty<number, DutyState>(),
  holders: PersistentMap.empty<string, Holder>(),
  leaving: PersistentMap.empty<number, true>(),
  change: null,
});

export const sessionOf = (model: DutyModel, src: number): DutyState => model.sessions.get(src) ?? OFF_DUTY;

/** The one way the model changes; each is a step of a decision, applied in its order. */
export type DutyUpdate =
  /** A transition: the session's duty becomes `change.next`. */
  | { kind: 'transition'; change: DutyChange }
  | { kind: 'hold'; holder: Holder }
  | { kind: 'release'; chatId: string }
  | { kind: 'leave'; src: number }
  /** The session is gone from everywhere: its duty, its holds and its leaving. */
  | { kind: 'forget'; src: number };

/** The updater: pure, so the model after any run of updates can be rebuilt from the empty one. */
export function applyUpdate(model: DutyModel, update: DutyUpdate): DutyModel {
  const { sessions, holders, leaving } = model;
  switch (update.kind) {
    case 'transition': {
      const { change } = update;
      return { sessions: sessions.set(change.src, change.next), holders, leaving, change };
    }
    case 'hold':
      return { sessions, holders: holders.set(update.holder.call.body.chatId, update.holder), leaving, change: null };
    case 'release':
      return { sessions, holders: holders.delete(update.chatId), leaving, change: null };
    case 'leave':
      return { sessions, holders, leaving: leaving.set(update.src, true), change: null };
    case 'forget': {
      const { src } = update;
      let held = holders;
      holders.forEach((holder, chatId) => {
        if (holder.src === src) held = held.delete(chatId);
      });
      return { sessions: sessions.delete(src), holders: held, leaving: leaving.delete(src), change: null };
    }
  }
}
