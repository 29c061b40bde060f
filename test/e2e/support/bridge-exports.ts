import type { DutyOptions } from '../../../client/bridge-client.js';
import type { DutyOutcome } from '../../../shared/events.js';
import type { SimPlayer } from '../../../sim/index.js';

/** The bridge's client exports as a JS consumer calls them (through the simulator's msgpack boundary). */
export interface BridgeClientExports {
  IsPlayerOnDuty(): boolean;
  GetDutyOptions(): DutyOptions;
  UpdatePlayerDuty(status: unknown, callback?: (outcome: DutyOutcome) => void): boolean;
}

export const bridgeOf = (player: SimPlayer): BridgeClientExports => player.exports.bridge as BridgeClientExports;

/** The exports of the Lua duty menu fixture (test/e2e/fixtures/lua_duty_menu). */
export interface LuaDutyMenuExports {
  options(): [DutyOptions, string];
  goOnDuty(index: number): boolean | [false, string];
  select(index: number): boolean;
  goOnDutyAsSelected(): boolean;
  goOffDuty(): boolean;
  isOnDuty(): boolean;
  seen(): unknown;
}

export const luaMenuOf = (player: SimPlayer): LuaDutyMenuExports => player.exports.lua_duty_menu as LuaDutyMenuExports;
