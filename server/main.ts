import { startBridgeServer } from './bridge-server.js';
import { createServerPort } from './fivem/server-adapter.js';

// FXServer runs this bundle as a classic script: wire the adapter to the bridge and export nothing.
let stop = (): void => {};
const port = createServerPort(() => stop());
const bridge = startBridgeServer(port, {
  // Node's monotonic clock, read as epoch ms: the wall time the process started at, then performance.now's count.
  now: () => performance.timeOrigin + performance.now(),
  wallNow: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
});
stop = () => bridge.stop();
