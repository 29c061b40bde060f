/// <reference path="./state-bag.d.ts" />
// Types the bridge's side of a server script's globals: `exports.bridge`, `on` for its server events and the
// `bridge:duty` state bag on `Player(src).state`. Include it in a server tsconfig beside @citizenfx/server.
import type { BridgeServerEvents, BridgeServerExports } from './index';

declare global {
  interface CitizenExports {
    bridge: BridgeServerExports;
  }

  /** A bridge server event, with its arguments typed. */
  function on<E extends keyof BridgeServerEvents>(
    eventName: E,
    callback: (...args: BridgeServerEvents[E]) => void,
  ): void;
}
