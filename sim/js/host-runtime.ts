// The test's own runtime on a host: a JS runtime in the host realm (no vm context, no scripts) under the hidden
// resource `sim`. Test calls go through it so they cross the same msgpack boundary as a script's would:
// `p.exports.bridge.GetDutyOptions()` looks the export up with the __cfx_export_ event and calls the reference.
import { hostRealm } from '../codec/realm.js';
import type { Host } from '../host/host.js';
import type { ResourceInstance } from '../host/resource.js';
import { JsCore } from './js-core.js';

/**
 * Every resource's exports, called as a script would: `p.exports.bridge.GetDutyOptions()`. Loosely typed (any
 * resource, any export, any result); cast to an interface of your own for stricter types.
 */
// biome-ignore lint/suspicious/noExplicitAny: exports of any resource return anything
export type ExportsProxy = Record<string, any>;

export class HostRuntime extends JsCore {
  readonly kind = 'host' as const;
  /** `source` as a handler registered through this runtime would see it. */
  currentSource: unknown = null;
  readonly exports: ExportsProxy;

  constructor(host: Host, resource: ResourceInstance) {
    super(host, resource, hostRealm);
    this.exports = this.createExports() as ExportsProxy;
    this.listenForResourceStops();
  }

  protected setSource(value: unknown): void {
    this.currentSource = value;
  }
}
