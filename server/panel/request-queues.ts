// How panel requests wait: in priority classes, and within a class taking turns between players.
import type { SendPace } from './rate-budget.js';

/**
 * Every panel request waits in one of these classes; a class is served only when every class before it is empty.
 * - `duty`: duty on/off calls (and the probe), the only class that may use every request left in the window;
 * - `waiting`: a player is actively waiting (their client asked for their profile, /dutyrefresh, a duty check);
 * - `join`: a joining player's profile, fetched before their client asks for it;
 * - `member-refresh`, `other-refresh`: stale profiles refreshed in the background, department members first.
 */
export const REQUEST_CLASSES = ['duty', 'waiting', 'join', 'member-refresh', 'other-refresh'] as const;

export type RequestClass = (typeof REQUEST_CLASSES)[number];

/** The classes a profile fetch may use (duty calls have their own). */
export type ProfileRequestClass = Exclude<RequestClass, 'duty'>;

export const classRank = (requestClass: RequestClass): number => REQUEST_CLASSES.indexOf(requestClass);

/** Duty calls go as soon as a request is left; the rest is spread over the window so duty calls always find one. */
export const paceOf = (requestClass: RequestClass): SendPace => (requestClass === 'duty' ? 'immediate' : 'paced');

/**
 * A queue that takes turns between players: each `shift` serves the next player in rotation, one item each, so a
 * player with many items never holds up the others. Items put back with `unshift` (a request refused with a 429)
 * go before every turn.
 */
export class FairQueue<T> {
  private readonly front: T[] = [];
  // A Map keeps insertion order: the first key is the player whose turn it is.
  private readonly turns = new Map<string, T[]>();
  private count = 0;

  constructor(private readonly playerOf: (item: T) => string) {}

  push(item: T): void {
    const player = this.playerOf(item);
    const items = this.turns.get(player);
    if (items) items.push(item);
    else this.turns.set(player, [item]);
    this.count += 1;
  }

  unshift(item: T): void {
    this.front.unshift(item);
    this.count += 1;
  }

  peek(): T | undefined {
    if (this.front.length > 0) return this.front[0];
    const first = this.turns.values().next();
    return first.done ? undefined : first.value[0];
  }

  shift(): T | undefined {
    const early = this.front.shift();
    if (early !== undefined) {
      this.count -= 1;
      return early;
    }
    const first = this.turns.entries().next();
    if (first.done) return undefined;
    const [player, items] = first.value;
    const item = items.shift();
    this.turns.delete(player);
    // Back of the line for this player's next item.
    if (items.length > 0) this.turns.set(player, items);
    this.count -= 1;
    return item;
  }

  remove(item: T): boolean {
    const index = this.front.indexOf(item);
    if (index !== -1) {
      this.front.splice(index, 1);
      this.count -= 1;
      return true;
    }
    const player = this.playerOf(item);
    const items = this.turns.get(player);
    const at = items?.indexOf(item) ?? -1;
    if (!items || at === -1) return false;
    items.splice(at, 1);
    if (items.length === 0) this.turns.delete(player);
    this.count -= 1;
    return true;
  }

  /** Empties the queue, returning what it held. */
  drain(): T[] {
    const items = [...this.front, ...[...this.turns.values()].flat()];
    this.front.length = 0;
    this.turns.clear();
    this.count = 0;
    return items;
  }

  get size(): number {
    return this.count;
  }
}
