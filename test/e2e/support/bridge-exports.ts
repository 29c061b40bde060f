import type { DutyOptions } from '../../../client/bridge-client.js';
import type { DutyOutcome } from '../../../shared/events.js';
import type { Sim, SimPlayer } from '../../../sim/index.js';

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
  /** `math.type` of each time the client holds: the last profile's, the last outcome's, the state bag's. */
  timeTypes(): Record<string, string>;
  goOffDuty(): boolean;
  isOnDuty(): boolean;
  seen(): unknown;
}

export const luaMenuOf = (player: SimPlayer): LuaDutyMenuExports => player.exports.lua_duty_menu as LuaDutyMenuExports;

/**
 * The player's client goes on duty in the department at `departmentIndex` of their options (or off duty) through
 * the client exports, as a menu does; resolves with the outcome once every event it caused was delivered.
 */
export async function changeDuty(sim: Sim, player: SimPlayer, on: boolean, departmentIndex = 0): Promise<DutyOutcome> {
  if (on) {
    const options = bridgeOf(player).GetDutyOptions() as { departments: Array<{ setActive(): boolean }> };
    options.departments[departmentIndex]?.setActive();
  }
  const outcomes: DutyOutcome[] = [];
  bridgeOf(player).UpdatePlayerDuty(on, (outcome) => outcomes.push(outcome));
  await sim.until(() => outcomes.length > 0, 15_000, 'the duty outcome');
  await sim.settle();
  return outcomes[0] as DutyOutcome;
}
