// FiveM's JS runtime packs a number outside int32 as a msgpack float64 (fivem-runtime.md §1.5), so an epoch-ms time
// such as a duty's `since` reaches a Lua script as a float: `math.type(since) == 'float'`, though the bridge's types
// say integer. The same packer writes an int64-buffer `Int64BE` as a msgpack int64
// (citizenfx/fivem data/shared/citizen/scripting/v8/msgpack.js at 43a1a425, write-type: `u.isInt64BE(r)`, then
// `r.toArray()`). Lua reads an int64 as an integer, and a JS receiver decodes it to a plain number, as before.
// int64-buffer recognises its values by the `_isInt64BE` marker, not by their class, so this small stand-in, made in
// the bridge's own bundle, is packed as one.

const TWO_POW_32 = 2 ** 32;
// Read once: every global looked up in a call costs a lookup, a slow one in a Node vm context such as the simulator's,
// and a list of 400 players on duty is thousands of them.
const { isArray } = Array;
const { isSafeInteger } = Number;
const { getPrototypeOf, prototype: OBJECT_PROTOTYPE } = Object;
const { floor } = Math;

/**
 * The bytes toArray() hands out: one array for every value, since the writer copies them into its buffer at once
 * (`new Int64BE(buffer, offset, bytes)`), and a list of 400 players on duty would otherwise make 400 arrays a call.
 */
const bytes = [0, 0, 0, 0, 0, 0, 0, 0];

/** What FiveM's msgpack writer takes for an Int64BE: the marker and the 8 big-endian bytes. */
class WireInt64 {
  declare readonly _isInt64BE: true;
  constructor(private readonly value: number) {}

  /** Two's complement, big-endian, as Int64BE's toArray() gives them. */
  toArray(): number[] {
    const high = floor(this.value / TWO_POW_32);
    const low = this.value - high * TWO_POW_32;
    for (let index = 0; index < 4; index++) {
      const shift = 24 - 8 * index;
      bytes[index] = (high >>> shift) & 0xff;
      bytes[index + 4] = (low >>> shift) & 0xff;
    }
    return bytes;
  }
}
// On the prototype, as int64-buffer puts it: one property for every value, not one each.
Object.defineProperty(WireInt64.prototype, '_isInt64BE', { value: true });

const outsideInt32 = (value: number) => isSafeInteger(value) && value !== (value | 0);

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = getPrototypeOf(value);
  return proto === OBJECT_PROTOTYPE || proto === null;
}

/**
 * `value` as the bridge hands it to FiveM (exports, events, state bags): every safe integer outside int32, at any
 * depth of plain objects and arrays, packed as a msgpack int64 so Lua gets an integer. Functions and everything else
 * are kept as they are; a value with no such integer is returned itself, not copied.
 */
export function wireIntegers<T>(value: T): T {
  if (typeof value === 'number') return (outsideInt32(value) ? new WireInt64(value) : value) as T;
  if (typeof value !== 'object' || value === null) return value;
  // Every duty change passes through here, most with nothing to change: nothing is allocated until something does.
  if (isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const wired = wireIntegers(value[index]);
      if (wired === value[index]) continue;
      copy ??= value.slice();
      copy[index] = wired;
    }
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  // A plain object's for...in sees its own keys only; unlike Object.entries it allocates nothing.
  for (const key in value) {
    const wired = wireIntegers(value[key]);
    if (wired === value[key]) continue;
    copy ??= { ...value };
    copy[key] = wired;
  }
  return (copy ?? value) as T;
}

/**
 * An export as FiveM runs it, with what it hands back (its result, a promise's value, what it passes to a callback it
 * was given) put through wireIntegers: a Lua caller gets integers where the types say so.
 */
export function wiredExport(fn: (...args: never[]) => unknown): (...args: unknown[]) => unknown {
  return (...args) => {
    const wiredArgs = args.some((arg) => typeof arg === 'function')
      ? args.map((arg) => (typeof arg === 'function' ? (...values: unknown[]) => arg(...wireIntegers(values)) : arg))
      : args;
    const result = (fn as (...args: unknown[]) => unknown)(...wiredArgs);
    return result instanceof Promise ? result.then(wireIntegers) : wireIntegers(result);
  };
}
