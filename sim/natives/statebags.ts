// State bag natives (fivem-runtime.md §7); the bag objects themselves (GlobalState, Player(x).state) are built by
// each language's API on top of world.stateBagGet/stateBagSet.
import { describe } from '../codec/msgpack.js';
import { int, optStr, str } from './args.js';
import { defineNatives } from './registry.js';

defineNatives('shared', {
  /** (keyFilter, bagFilter, handler) → cookie; the handler gets (bagName, key, value, reserved, replicated). */
  AddStateBagChangeHandler: (ctx, ...a) =>
    ctx.host.stateBags.addHandler(optStr(a, 0), optStr(a, 1), str(a, 2), ctx.resource),
  RemoveStateBagChangeHandler: (ctx, ...a) => {
    ctx.host.stateBags.removeHandler(int(a, 0));
  },
  GetStateBagValue: (ctx, ...a) => {
    const bytes = ctx.host.stateBags.get(str(a, 0), str(a, 1));
    return bytes ? describe(bytes) : null;
  },
  GetStateBagKeys: (ctx, ...a) => ctx.host.stateBags.keys(str(a, 0)),
  StateBagHasKey: (ctx, ...a) => ctx.host.stateBags.get(str(a, 0), str(a, 1)) !== undefined,
  EnsureEntityStateBag: (ctx, ...a) => {
    ctx.host.stateBags.create(`entity:${int(a, 0)}`);
  },
});
