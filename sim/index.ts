// The FXServer simulator: see docs/simulator.md.

export type { ChatSuggestion, Notification } from './host/client-data.js';
// For measuring and for checking a resource's files without starting a server.
export { switchCostUs } from './host/host-work.js';
export type { ConsoleLine, ScriptError, SimEvent } from './host/log.js';
export type { TimerStats } from './js/timers.js';
export { LuaModule } from './lua/lua-api.js';
export { readManifest, scriptsFor } from './manifest/manifest.js';
export { SimPlayer } from './player.js';
export { ConnectionRejected, type JoinOptions } from './server/connections.js';
export { cfgLines } from './server/console-line.js';
export type { SimHttpRequest, SimHttpResponse } from './server/http.js';
export { KvpStore } from './server/kvp.js';
export { createSim, type ResourceOption, Sim, type SimOptions } from './sim.js';
export {
  type ShutdownNotice,
  TXADMIN_DEFAULT_SHUTDOWN_DELAY_MS,
  TXADMIN_MONITOR,
  TXADMIN_RESTART_WARNINGS,
  TxAdmin,
} from './txadmin/tx-admin.js';
