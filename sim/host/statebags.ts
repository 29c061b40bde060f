// One side's copy of the state bags (fivem-runtime.md §7). Values are kept packed; a read unpacks a fresh copy.
// Change handlers run before the value is stored, on every set that reaches this side (even an unchanged one);
// a nil value deletes the key. Which sets replicate where is decided by the world (world.ts).
import { PACKED_NIL, pack, packArrayOfPacked } from '../codec/msgpack.js';
import type { Side, SimLog } from './log.js';

/** What a side's state bags need of their host (host.ts): whose they are, its reference calls, the log. */
export interface StateBagHost {
  readonly side: Side;
  readonly playerId: number | null;
  invokeRef(ref: string, args: Uint8Array): Uint8Array;
  readonly world: { readonly log: Pick<SimLog, 'print'> };
}

interface ChangeHandler {
  readonly key: string | null;
  readonly bag: string | null;
  readonly ref: string;
  readonly owner: string;
}

export class StateBagStore {
  private readonly bags = new Map<string, Map<string, Uint8Array>>([['global', new Map()]]);
  private readonly handlers = new Map<number, ChangeHandler>();
  private nextCookie = 1;

  constructor(private readonly host: StateBagHost) {}

  has(bag: string): boolean {
    return this.bags.has(bag);
  }

  create(bag: string): void {
    if (!this.bags.has(bag)) this.bags.set(bag, new Map());
  }

  remove(bag: string): void {
    this.bags.delete(bag);
  }

  get(bag: string, key: string): Uint8Array | undefined {
    return this.bags.get(bag)?.get(key);
  }

  keys(bag: string): string[] {
    return [...(this.bags.get(bag)?.keys() ?? [])];
  }

  entries(bag: string): [string, Uint8Array][] {
    return [...(this.bags.get(bag) ?? [])];
  }

  /** Applies a set on this side: handlers first, then the store. Returns whether the stored value changed. */
  apply(bag: string, key: string, value: Uint8Array, replicated: boolean, source: number): boolean {
    const values = this.bags.get(bag);
    if (!values) return false;
    this.runHandlers(bag, key, value, replicated, source);
    const isNil = value.length === 1 && value[0] === 0xc0;
    const previous = values.get(key);
    if (isNil) return values.delete(key);
    if (previous && equalBytes(previous, value)) return false;
    values.set(key, value);
    return true;
  }

  /** Copies a value without running handlers (a client catching up with the server's state at join). */
  seed(bag: string, key: string, value: Uint8Array): void {
    this.create(bag);
    this.bags.get(bag)?.set(key, value);
  }

  addHandler(key: string | null, bag: string | null, ref: string, owner: string): number {
    const cookie = this.nextCookie++;
    this.handlers.set(cookie, { key, bag, ref, owner });
    return cookie;
  }

  removeHandler(cookie: number): void {
    this.handlers.delete(cookie);
  }

  /** Handlers go away with the resource that registered them. */
  removeHandlersOf(owner: string): void {
    for (const [cookie, h] of this.handlers) if (h.owner === owner) this.handlers.delete(cookie);
  }

  private runHandlers(bag: string, key: string, value: Uint8Array, replicated: boolean, source: number): void {
    if (this.handlers.size === 0) return;
    const args = packArrayOfPacked([
      pack(bag, null),
      pack(key, null),
      value ?? PACKED_NIL,
      pack(source, null),
      pack(replicated, null),
    ]);
    for (const handler of [...this.handlers.values()]) {
      if (handler.key !== null && handler.key !== '' && handler.key !== key) continue;
      if (handler.bag !== null && handler.bag !== '' && handler.bag !== bag) continue;
      try {
        this.host.invokeRef(handler.ref, args);
      } catch (e) {
        this.host.world.log.print(this.host.side, this.host.playerId, handler.owner, 'error', String(e));
      }
    }
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
