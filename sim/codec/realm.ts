// Values handed to a resource's JS must belong to that resource's realm (its vm context), as they do in FXServer
// where msgpack decodes inside the runtime: `x instanceof Array`, `x.constructor === Object` and
// `e instanceof Error` must hold for what a script receives. msgpack-lite decodes in the host realm, so decoded
// payloads are copied into the context realm here.
import vm from 'node:vm';
import { isExtBuffer } from './msgpack.js';

export interface Realm {
  readonly Object: ObjectConstructor;
  readonly Array: ArrayConstructor;
  readonly Error: ErrorConstructor;
  readonly TypeError: TypeErrorConstructor;
  readonly Promise: PromiseConstructor;
  readonly ArrayBuffer: ArrayBufferConstructor;
  readonly Uint8Array: Uint8ArrayConstructor;
  readonly Date: DateConstructor;
  /** Copies a host-realm value (plain objects, arrays, ArrayBuffers) into this realm; primitives pass through. */
  adopt<T>(value: T): T;
  readonly isHost: boolean;
}

const realmScript = new vm.Script('({ Object, Array, Error, TypeError, Promise, ArrayBuffer, Uint8Array, Date })', {
  filename: 'citizen:/sim/realm.js',
});

/** The host realm: used by the simulator's own test-side runtimes, where nothing needs copying. */
export const hostRealm: Realm = {
  Object,
  Array,
  Error,
  TypeError,
  Promise,
  ArrayBuffer,
  Uint8Array,
  Date,
  adopt: (value) => value,
  isHost: true,
};

export function realmOf(context: vm.Context): Realm {
  const ctors = realmScript.runInContext(context) as Omit<Realm, 'adopt' | 'isHost'>;
  const objectProto = ctors.Object.prototype;
  const adopt = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const out = new ctors.Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = adopt(value[i]);
      return out;
    }
    if (value instanceof ArrayBuffer) {
      const out = new ctors.ArrayBuffer(value.byteLength);
      new ctors.Uint8Array(out).set(new Uint8Array(value));
      return out;
    }
    // ExtBuffers keep their class (scripts read .type and .buffer); anything else decoded is a plain object.
    if (isExtBuffer(value)) return value;
    const out = Object.create(objectProto) as Record<string, unknown>;
    for (const key of Object.keys(value)) out[key] = adopt((value as Record<string, unknown>)[key]);
    return out;
  };
  return { ...ctors, adopt: adopt as Realm['adopt'], isHost: false };
}
