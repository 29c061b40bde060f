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
 * A shift the panel keeps open while its player is away: their game crashed or timed out, and Config.ResumeWindowMs
 * gives them that long to come back to it (decide.ts, `holdShift`). It is the account's, not a session's: whichever
 * session of the account comes back takes it.
 */
export interface HeldShift {
  /** The session that dropped (its crash record is the shift's until the shift goes on or ends). */
  readonly src: number;
  /** Its duty as it dropped. */
  readonly state: DutyState;
  /** The `on` that opened it at the panel, to send again if the community asks its claim to restate. */
  readonly call?: OnCall;
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
  /** The shifts held for players whose game crashed or timed out, by chat account. */
  readonly held: PersistentMap<string, HeldShift>;
  /**
   * The sessions on duty with their duty, in the order `sessions` lists them; a new array whenever one of them
   * changes, and the same one otherwise (exports list them far more often than duties change, and the on-duty counts
   * read it at every change: kept here, it is never rebuilt from every session).
   */
  readonly onDuty: OnDutyList;
  /** The transition that made this model, when one did: `dutyChanges$` announces it. */
  readonly change: DutyChange | null;
}

export type OnDutyList = ReadonlyArray<readonly [number, DutyState]>;

export const EMPTY_DUTY_MODEL: DutyModel = Object.freeze({
  sessions: PersistentMap.empty<number, DutyState>(),
  holders: PersistentMap.empty<string, Holder>(),
  leaving: PersistentMap.empty<number, true>(),
  held: PersistentMap.empty<string, HeldShift>(),
  onDuty: Object.freeze([]),
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
  | { kind: 'forget'; src: number }
  | { kind: 'holdShift'; chatId: string; shift: HeldShift }
  /** The held shift goes on in a session, or ends. */
  | { kind: 'endHeld'; chatId: string };

/** The updater: pure, so the model after any run of updates can be rebuilt from the empty one. */
export function applyUpdate(model: DutyModel, update: DutyUpdate): DutyModel {
  const { sessions, holders, leaving, held, onDuty } = model;
  switch (update.kind) {
    case 'transition': {
      const { change } = update;
      const next = sessions.set(change.src, change.next);
      return { sessions: next, holders, leaving, held, onDuty: listed(onDuty, next, change.src, change.next), change };
    }
    case 'hold':
      return {
        sessions,
        holders: holders.set(update.holder.call.body.chatId, update.holder),
        leaving,
        held,
        onDuty,
        change: null,
      };
    case 'release':
      return { sessions, holders: holders.delete(update.chatId), leaving, held, onDuty, change: null };
    case 'leave':
      return { sessions, holders, leaving: leaving.set(update.src, true), held, onDuty, change: null };
    case 'holdShift':
      return { sessions, holders, leaving, held: held.set(update.chatId, update.shift), onDuty, change: null };
    case 'endHeld':
      return { sessions, holders, leaving, held: held.delete(update.chatId), onDuty, change: null };
    case 'forget': {
      const { src } = update;
      let kept = holders;
      holders.forEach((holder, chatId) => {
        if (holder.src === src) kept = kept.delete(chatId);
      });
      const next = sessions.delete(src);
      return {
        sessions: next,
        holders: kept,
        leaving: leaving.delete(src),
        held,
        onDuty: listed(onDuty, next, src, undefined),
        change: null,
      };
    }
  }
}

/** The on-duty list after `src`'s duty became `state` (undefined: forgotten), in the order of `sessions`. */
function listed(
  list: OnDutyList,
  sessions: DutyModel['sessions'],
  src: number,
  state: DutyState | undefined,
): OnDutyList {
  let at = -1;
  for (let i = 0; i < list.length; i++) {
    if ((list[i] as readonly [number, DutyState])[0] === src) {
      at = i;
      break;
    }
  }
  if (!state?.onDuty) {
    return at < 0 ? list : spliced(list, at, 1);
  }
  const entry = [src, state] as const;
  if (at >= 0) {
    const copy = list.slice();
    copy[at] = entry;
    return copy;
  }
  // Where it stands among the others by when each was first seen: the first listed one seen after it.
  const order = sessions.orderOf(src) ?? Number.POSITIVE_INFINITY;
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const other = (list[middle] as readonly [number, DutyState])[0];
    if ((sessions.orderOf(other) ?? 0) < order) low = middle + 1;
    else high = middle;
  }
  return spliced(list, low, 0, entry);
}

/** A copy of `list` with the entry at `at` taken out (`removed` 1) or `entry` put there: one array of the exact size. */
function spliced<T>(list: readonly T[], at: number, removed: 0 | 1, entry?: T): T[] {
  const length = list.length - removed + (entry === undefined ? 0 : 1);
  const copy = new Array<T>(length);
  let to = 0;
  for (let from = 0; from < list.length; from++) {
    if (from === at) {
      if (entry !== undefined) copy[to++] = entry;
      if (removed === 1) continue;
    }
    copy[to++] = list[from] as T;
  }
  if (at === list.length && entry !== undefined) copy[to] = entry;
  return copy;
}
