import { startBridgeClient } from './bridge-client.js';
import { createClientPort } from './fivem/client-adapter.js';

// Plain V8 in the game client: no Node and no Web APIs; the adapter is the only code touching globals.
startBridgeClient(createClientPort());
