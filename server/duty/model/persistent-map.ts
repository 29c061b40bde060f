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
