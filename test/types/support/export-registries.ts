import { startBridgeClient } from '../../../client/bridge-client.js';
import { registerServerExports } from '../../../server/edge/server-exports.js';
import { createFakeClientPort } from '../../client/fake-client-port.js';

export type JsExport = (...args: never[]) => unknown;

/** The exports the server half registers, by name, as register-exports.ts registers them. */
export function serverExportRegistry(): Map<string, JsExport> {
  const registered = new Map<string, JsExport>();
  registerServerExports({
    port: { registerExport: (name, fn) => registered.set(name, fn) },
    // The exports reach these only when called; registering them touches none.
    duty: {} as never,
    players: {} as never,
    profiles: {} as never,
    messages: {} as never,
    communityCount: () => 0,
  });
  return registered;
}

/** The exports the client half registers, by name, as it registers them on start. */
export function clientExportRegistry(): Map<string, JsExport> {
  const registered = new Map<string, JsExport>();
  const { port } = createFakeClientPort();
  startBridgeClient({ ...port, registerExport: (name, fn) => registered.set(name, fn) });
  return registered;
}
