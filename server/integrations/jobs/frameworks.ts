import type { ResourcePort } from '../integration.js';
import { createEsxAdapter } from './esx.js';
import type { FrameworkAdapter, FrameworkId } from './job-framework.js';
import { createOxCoreAdapter } from './ox-core.js';
import { createQbCoreAdapter } from './qbcore.js';
import { createQboxAdapter } from './qbox.js';

/**
 * The order `'auto'` tries them in. Qbox comes before QBCore because qbx_core also provides `qb-core` for the
 * resources written for QBCore; ox_core last because a server may run it beside ESX or QBCore for its other parts.
 */
export const AUTO_ORDER: readonly FrameworkId[] = ['qbox', 'qbcore', 'esx', 'ox_core'];

export function createFrameworkAdapters(resources: ResourcePort): Record<FrameworkId, FrameworkAdapter> {
  return {
    esx: createEsxAdapter(resources),
    qbcore: createQbCoreAdapter(resources),
    qbox: createQboxAdapter(resources),
    ox_core: createOxCoreAdapter(resources),
  };
}
