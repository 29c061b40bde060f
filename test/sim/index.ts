// The FXServer simulator: see docs/simulator.md.

export type { ChatSuggestion, Notification } from './host/client-data.js';
export type { ConsoleLine, ScriptError, SimEvent } from './host/log.js';
export { SimPlayer } from './player.js';
export { ConnectionRejected, type JoinOptions } from './server/connections.js';
export { createSim, type ResourceOption, Sim, type SimOptions } from './sim.js';
