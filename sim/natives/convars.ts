// Convar natives (fivem-runtime.md §5). The name and default go through `_ts`: a default of 0 comes back as
// null. A client sees only replicated (`setr`) convars.
import { convarBool, convarFloat, convarInt } from '../server/convars.js';
import { int, optStr, str } from './args.js';
import { defineNatives, type NativeContext } from './registry.js';

function read(ctx: NativeContext, name: string): string | undefined {
  const convar = ctx.host.world.convars.get(name);
  if (!convar) return undefined;
  if (ctx.host.side === 'client' && !convar.replicated) return undefined;
  return convar.value;
}

defineNatives('shared', {
  GetConvar: (ctx, ...a) => read(ctx, str(a, 0)) ?? optStr(a, 1),
  GetConvarInt: (ctx, ...a) => convarInt(read(ctx, str(a, 0)), int(a, 1)),
  GetConvarFloat: (ctx, ...a) => convarFloat(read(ctx, str(a, 0)), Number(a[1] ?? 0)),
  GetConvarBool: (ctx, ...a) => convarBool(read(ctx, str(a, 0)), Boolean(a[1])),
});

defineNatives('server', {
  SetConvar: (ctx, ...a) => ctx.host.world.convars.set(str(a, 0), optStr(a, 1) ?? ''),
  SetConvarReplicated: (ctx, ...a) => ctx.host.world.convars.set(str(a, 0), optStr(a, 1) ?? '', { replicated: true }),
  SetConvarServerInfo: (ctx, ...a) => ctx.host.world.convars.set(str(a, 0), optStr(a, 1) ?? '', { serverInfo: true }),
  /** The callback gets (convarName, reserved) through its reference. */
  AddConvarChangeListener: (ctx, ...a) => {
    const pattern = optStr(a, 0);
    const ref = str(a, 1);
    const host = ctx.host;
    return host.world.convars.addListener(pattern, ctx.resource, (name) => {
      try {
        host.invokeRef(ref, host.test.pack([name, null]));
      } catch (e) {
        host.world.log.print('server', null, ctx.resource, 'error', String(e));
      }
    });
  },
  RemoveConvarChangeListener: (ctx, ...a) => {
    ctx.host.world.convars.removeListener(int(a, 0));
  },
});
