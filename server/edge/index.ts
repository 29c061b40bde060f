export { type BridgeServer, startBridgeServer } from './bridge-server.js';
export { createServerPort } from './fivem/server-adapter.js';
