// The JS state bag API of main.js (fivem-runtime.md §7.1): a bag is a proxy whose reads unpack a fresh copy
// (null when absent), whose `state.key = v` replicates only on the server, and whose `state.set(k, v, replicated)`
// takes the flag as given (undefined means not replicated, even on the server).
import type { JsCore } from './js-core.js';

export function createStateBagApi(rt: JsCore): Record<string, unknown> {
  const host = rt.host;
  const world = host.world;
  const isServer = host.side === 'server';

  const NewStateBag = (bagName: unknown) => {
    const bag = String(bagName);
    return new Proxy(Object.create(rt.realm.Object.prototype) as object, {
      get(_target, key) {
        if (typeof key === 'symbol') return undefined;
        if (key === 'set') {
          return (k: unknown, value: unknown, replicated: unknown) =>
            world.stateBagSet(host, bag, String(k), rt.pack(value), Boolean(replicated));
        }
        const bytes = world.stateBagGet(host, bag, key);
        return bytes ? rt.unpack(bytes) : null;
      },
      set(_target, key, value) {
        world.stateBagSet(host, bag, String(key), rt.pack(value), isServer);
        return true;
      },
    });
  };

  const Player = (ent: unknown) => {
    const id = ent === -1 && !isServer ? (host.playerId ?? 0) : ent;
    const player = Object.create(rt.realm.Object.prototype) as Record<string, unknown>;
    Object.defineProperty(player, 'state', { get: () => NewStateBag(`player:${id}`), enumerable: true });
    return player;
  };

  const Entity = (ent: unknown) => {
    const entity = Object.create(rt.realm.Object.prototype) as Record<string, unknown>;
    Object.defineProperty(entity, 'state', { get: () => NewStateBag(`entity:${ent}`), enumerable: true });
    return entity;
  };

  const api: Record<string, unknown> = { NewStateBag, Player, Entity, GlobalState: NewStateBag('global') };
  if (!isServer) api.LocalPlayer = Player(-1);
  return api;
}
