/// <reference path="./state-bag.d.ts" />
// Types the bridge's side of a client script's globals: `exports.bridge`, `onNet` for its client events and the
// `bridge:duty` state bag on `LocalPlayer.state`. Include it in a client tsconfig beside @citizenfx/client.
import type { BridgeClientEvents, BridgeClientExports } from './index';

declare global {
  interface CitizenExports {
    bridge: BridgeClientExports;
  }

  /** A bridge client event, with its arguments typed. */
  function onNet<E extends keyof BridgeClientEvents>(
    eventName: E,
    callback: (...args: BridgeClientEvents[E]) => void,
  ): void;
}
