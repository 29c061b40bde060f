import type { ResourcePort } from '../../../../server/integrations/integration.js';
import type { Sim } from '../../../../sim/index.js';

/**
 * A ResourcePort over the simulator's server-side test runtime: the same FiveM surface the bridge's adapter uses
 * (GetResourceState, export lookups and calls through msgpack, local events), so an integration driven through it
 * talks to the stub resources exactly as it would to the real ones.
 */
export function simResourcePort(sim: Sim): ResourcePort {
  return {
    resourceState: (name) => sim.resourceState(name),
    hasExport(resource, name) {
      try {
        return typeof sim.exports[resource][name] === 'function';
      } catch {
        return false;
      }
    },
    callExport: (resource, name, ...args) => sim.exports[resource][name](...args),
    emitLocal: (event, ...args) => sim.emit(event, ...args),
    emitClient: (event, src, ...args) => sim.emitNet(event, src, ...args),
    globalState: (key) => sim.stateBag('global')[key],
    onLocal: (event, handler) => sim.on(event, (args) => handler(...args)),
  };
}
