import type { DeptDataPayload, DutyEndReason, DutySnapshot } from '../../shared/events.js';
import type { OnCall } from './duty-call.js';

// The duty model, pure: a player's duty, its transitions, the immutable maps that hold them, and the one updater.
// decide.ts reads and updates it; nothing here has a clock, a library or a side effect.

/**
 * A player's duty. The department's slug and name are the panel's latest for its id: the duty follows the department
 * when the panel renames it.
 */
export interface DutyState extends DutySnapshot {
  departmentSlug: string | null;
  departmentName: string | null;
}

export const OFF_DUTY: DutyState = Object.freeze({
  onDuty: false,
  departmentId: null,
  departmentSlug: null,
  departmentName: null,
  rankId: null,
  since: null,
});

export const snapshotOf = ({ onDuty, departmentId, rankId, since }: DutyState): DutySnapshot => ({
  onDuty,
  departmentId,
  rankId,
  since,
});

/**
 * A shift of this server: the session and the moment its duty began. It is the same across a rank change or a
 * renamed department (the duty's `since` stays), new with every `on`, and readable from the open-duty ledger after a
 * crash (the record keeps both).
 */
export const shiftOf = (src: number, since: number): string => `${src}:${since}`;

interface Transition {
  src: number;
  /** The player's chat account; undefined for a player without one (who never goes on duty). */
  chatId: string | undefined;
  previous: DutyState;
  next: DutyState;
}

/**
 * One transition of a player's duty, as `dutyChanges$` announces it: every effect (events, state bag, crash record,
 * integrations, polling) is a subscriber of these and of nothing else.
 */
export type DutyChange =
  /**
   * Went on duty, in a department the panel accepted (or, degraded mode `queue`, that the panel will learn of).
   * `department.resumed`: the account's held shift goes on (Config.ResumeWindowMs), already open at the panel.
   */
  | (Transition & { kind: 'on'; department: DeptDataPayload })
  /** Still on duty in the same department, with the rank the panel now gives (and its slug and name now). */
  | (Transition & { kind: 'rank'; department: DeptDataPayload })
  /** Still on duty in the same department with the same rank, under the slug or name the panel now gives it. */
  | (Transition & { kind: 'renamed'; department: DeptDataPayload })
  /**
   * Went off duty; `previous.departmentId` is the department that ended. `resumable`: the session's game crashed or
   * timed out and the panel keeps the shift, held for Config.ResumeWindowMs (its crash record stays).
   */
  | (Transition & { kind: 'off'; reason: DutyEndReason; resumable?: true });

/** The department a change concerns: the one entered, or for going off duty the one that ended. */
export const departmentOf = (change: DutyChange): number | null =>
  change.kind === 'off' ? change.previous.departmentId : change.next.departmentId;

/**
 * An immutable map that shares all but one path with the map it was made from: `set` and `delete` return a new map
 * and leave this one as it was. The duty model changes a key or two per intent among thousands of players, so a copy
 * of a whole Map per change would allocate what a toggle must not; a path here is three small arrays.
 *
 * A hash trie of fixed depth: two levels of 16 branches on the key's hash, then a leaf holding the keys that share
 * those 8 bits, as `[key, value, order, key, value, order, …]`. Server ids are small integers that come in order, so
 * they spread one per leaf up to 256 players and a few per leaf beyond. Like a Map, it lists its entries in the order
 * their keys were first set (`order`). immutable.js does this and more, at 60 KB of bundle; the server bundle has
 * 8 KB to spare.
 */
type Leaf = readonly unknown[];
type Branch = readonly (Branch | Leaf | undefined)[];

const BITS = 4;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;
const STRIDE = 3;

function hashOf(key: string | number): number {
  if (typeof key === 'number') return key | 0;
  // FNV-1a: chat ids are digits, and their low digits vary the most.
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash;
}

function copyWith<T>(array: readonly T[] | undefined, index: number, value: T): T[] {
  const copy = array ? array.slice() : new Array<T>(WIDTH);
  copy[index] = value;
  return copy;
}

function indexIn(leaf: Leaf, key: unknown): number {
  for (let i = 0; i < leaf.length; i += STRIDE) if (leaf[i] === key) return i;
  return -1;
}

export class PersistentMap<K extends string | number, V> {
  private static readonly EMPTY = new PersistentMap<never, never>(undefined, 0, 0);

  static empty<K extends string | number, V>(): PersistentMap<K, V> {
    return PersistentMap.EMPTY as PersistentMap<K, V>;
  }

  private constructor(
    private readonly root: Branch | undefined,
    readonly size: number,
    /** The order the next new key gets. */
    private readonly nextOrder: number,
  ) {}

  get(key: K): V | undefined {
    const leaf = this.leafOf(hashOf(key));
    const at = leaf ? indexIn(leaf, key) : -1;
    return at < 0 ? undefined : ((leaf as Leaf)[at + 1] as V);
  }

  has(key: K): boolean {
    const leaf = this.leafOf(hashOf(key));
    return leaf !== undefined && indexIn(leaf, key) >= 0;
  }

  /** Where `key` stands in the order its keys were first set (higher: later); undefined when it is not here. */
  orderOf(key: K): number | undefined {
    const leaf = this.leafOf(hashOf(key));
    const at = leaf ? indexIn(leaf, key) : -1;
    return at < 0 ? undefined : ((leaf as Leaf)[at + 2] as number);
  }

  /** This map when `key` already has this very value. A key that has one keeps its place in the order. */
  set(key: K, value: V): PersistentMap<K, V> {
    const hash = hashOf(key);
    const leaf = this.leafOf(hash);
    const at = leaf ? indexIn(leaf, key) : -1;
    if (leaf && at >= 0) {
      if (leaf[at + 1] === value) return this;
      const next = leaf.slice();
      next[at + 1] = value;
      return new PersistentMap(this.withLeaf(hash, next), this.size, this.nextOrder);
    }
    const next = leaf ? [...leaf, key, value, this.nextOrder] : [key, value, this.nextOrder];
    return new PersistentMap(this.withLeaf(hash, next), this.size + 1, this.nextOrder + 1);
  }

  /** This map when `key` is not in it. */
  delete(key: K): PersistentMap<K, V> {
    const hash = hashOf(key);
    const leaf = this.leafOf(hash);
    const at = leaf ? indexIn(leaf, key) : -1;
    if (!leaf || at < 0) return this;
    const next = leaf.length === STRIDE ? undefined : [...leaf.slice(0, at), ...leaf.slice(at + STRIDE)];
    return new PersistentMap(this.withLeaf(hash, next), this.size - 1, this.nextOrder);
  }

  /** Every entry, in no particular order. */
  forEach(visit: (value: V, key: K) => void): void {
    const root = this.root;
    if (!root) return;
    for (const branch of root) {
      if (!branch) continue;
      for (const leaf of branch as Branch) {
        if (!leaf) continue;
        for (let i = 0; i < leaf.length; i += STRIDE) visit(leaf[i + 1] as V, leaf[i] as K);
      }
    }
  }

  private leafOf(hash: number): Leaf | undefined {
    const branch = this.root?.[hash & MASK] as Branch | undefined;
    return branch?.[(hash >>> BITS) & MASK] as Leaf | undefined;
  }

  private withLeaf(hash: number, leaf: Leaf | undefined): Branch {
    const outer = hash & MASK;
    const inner = (hash >>> BITS) & MASK;
    const branch = this.root?.[outer] as Branch | undefined;
    return copyWith<Branch | Leaf | undefined>(this.root, outer, copyWith(branch, inner, leaf));
  }
}

/**
 * The entries of `map` whose value passes `keep`, in the order their keys were first set (as a Map lists them). The
 * duty model keeps its own on-duty list; this is for whoever checks it.
 */
export function entriesInOrder<K extends string | number, V>(
  map: PersistentMap<K, V>,
  keep: (value: V) => boolean = () => true,
): Array<readonly [K, V]> {
  const found: Array<{ order: number; entry: readonly [K, V] }> = [];
  map.forEach((value, key) => {
    if (keep(value)) found.push({ order: map.orderOf(key) ?? 0, entry: [key, value] });
  });
  return found.sort((a, b) => a.order - b.order).map(({ entry }) => entry);
}

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
