import { startBridgeServer } from './bridge-server.js';
import { createServerPort } from './fivem/server-adapter.js';

// FXServer runs this bundle as a classic script: wire the adapter to the bridge and export nothing.
let stop = (): void => {};
const port = createServerPort(() => stop());
const bridge = startBridgeServer(port, {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
});
stop = () => bridge.stop();
