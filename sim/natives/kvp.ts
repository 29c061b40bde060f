// Resource KVP natives (fivem-runtime.md §8): per-resource keys, typed values, string reads of a missing key give
// null and numeric reads 0, a read with the wrong type fails, iteration returns full keys. The server's store
// persists (world.kvp); a client's lives with that client. NoSync writes reach the log only with the next sync,
// so a hard kill can lose them (see server/kvp.ts).
import type { KvpStore, KvpValue } from '../server/kvp.js';
import { float, int, str } from './args.js';
import { defineNatives, type NativeContext } from './registry.js';

function store(ctx: NativeContext): KvpStore {
  return ctx.host.clientKvp ?? ctx.host.world.kvp;
}

function read(ctx: NativeContext, key: string, type: KvpValue['t'], native: string): KvpValue | undefined {
  const value = store(ctx).get(ctx.resource, key);
  if (value && value.t !== type) throw new Error(`${native}: the value of '${key}' is not of the requested type`);
  return value;
}

const stringValue = (a: readonly unknown[]): KvpValue => ({ t: 's', v: str(a, 1) });
const intValue = (a: readonly unknown[]): KvpValue => ({ t: 'i', v: int(a, 1) });
const floatValue = (a: readonly unknown[]): KvpValue => ({ t: 'f', v: float(a, 1) });

const set =
  (value: (a: readonly unknown[]) => KvpValue, sync: boolean) =>
  (ctx: NativeContext, ...a: unknown[]) =>
    store(ctx).set(ctx.resource, str(a, 0), value(a), { sync });
const remove =
  (sync: boolean) =>
  (ctx: NativeContext, ...a: unknown[]) =>
    store(ctx).delete(ctx.resource, str(a, 0), { sync });

defineNatives('shared', {
  SetResourceKvp: set(stringValue, true),
  SetResourceKvpNoSync: set(stringValue, false),
  SetResourceKvpInt: set(intValue, true),
  SetResourceKvpIntNoSync: set(intValue, false),
  SetResourceKvpFloat: set(floatValue, true),
  SetResourceKvpFloatNoSync: set(floatValue, false),
  DeleteResourceKvp: remove(true),
  DeleteResourceKvpNoSync: remove(false),
  GetResourceKvpString: (ctx, ...a) => read(ctx, str(a, 0), 's', 'GetResourceKvpString')?.v ?? null,
  GetResourceKvpInt: (ctx, ...a) => read(ctx, str(a, 0), 'i', 'GetResourceKvpInt')?.v ?? 0,
  GetResourceKvpFloat: (ctx, ...a) => read(ctx, str(a, 0), 'f', 'GetResourceKvpFloat')?.v ?? 0,
  StartFindKvp: (ctx, ...a) => ctx.host.world.kvpFinds.start(store(ctx).keys(ctx.resource, str(a, 0))),
  FindKvp: (ctx, ...a) => ctx.host.world.kvpFinds.next(int(a, 0)),
  EndFindKvp: (ctx, ...a) => {
    ctx.host.world.kvpFinds.end(int(a, 0));
  },
});

defineNatives('server', {
  /** Every NoSync write so far reaches the log (one log for the server, as RocksDB has one write-ahead log). */
  FlushResourceKvp: (ctx) => {
    ctx.host.world.kvp.flush();
  },
});
