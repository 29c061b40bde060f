import { createServerPort, startBridgeServer } from './edge/index.js';
import type { LoadModule } from './kernel/optional-module.js';

// FXServer runs this bundle as a classic script: wire the adapter to the bridge and export nothing.
let stop = (): void => {};
const port = createServerPort(() => stop());
const bridge = startBridgeServer(port, {
  // Node's monotonic clock, read as epoch ms: the wall time the process started at, then performance.now's count.
  now: () => performance.timeOrigin + performance.now(),
  wallNow: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
  // FXServer's global `require`, which resolves a relative name from the resource's folder
  // (server/kernel/optional-module.ts); read off the global so esbuild leaves it alone.
  load: (globalThis as { require?: LoadModule }).require,
});
stop = () => bridge.stop();
