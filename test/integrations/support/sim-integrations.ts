import { createIntegrations, type Integrations } from '../../../server/integrations/create-integrations.js';
import { defaultConfig } from '../../../shared/config/index.js';
import type { BridgeConfig } from '../../../shared/config/schema.js';
import { createSim, type ResourceOption, type Sim } from '../../../sim/index.js';
import { FakeBridge } from './fake-bridge.js';
import { recordingLogger } from './fake-resources.js';
import { simResourcePort } from './sim-resource-port.js';

type StubFn = (...args: unknown[]) => unknown;

/** The exports the stub resources of test/e2e/fixtures/stub_resources have (each has the ones of its framework). */
export interface StubExports {
  calls: StubFn;
  loadPlayer: StubFn;
  unloadPlayer: StubFn;
  job: StubFn;
  groups: StubFn;
  failNextSetJob: StubFn;
  toggleDuty: StubFn;
  isInService: StubFn;
  [other: string]: StubFn | undefined;
}

export interface SimIntegrations {
  sim: Sim;
  bridge: FakeBridge;
  integrations: Integrations;
  warnings: () => string[];
  lines: string[];
  /** A stub resource's exports, called from the server's test runtime through msgpack. */
  stub: (resource: string) => StubExports;
}

/**
 * The integrations as the bridge creates them, talking through a ResourcePort over the simulator to stub resources
 * running in the real Lua runtime. The clock is virtual; the stubs' start-up threads have run.
 */
export async function simIntegrations(
  resources: readonly ResourceOption[],
  config: Partial<BridgeConfig['Integrations']>,
  convars: Record<string, string> = {},
): Promise<SimIntegrations> {
  const sim = await createSim({ resources, clock: 'virtual', convars });
  await sim.tick(1);
  const bridge = new FakeBridge();
  const { logger, lines, at } = recordingLogger();
  const integrations = createIntegrations({
    config: { ...defaultConfig().Integrations, ...config },
    resources: simResourcePort(sim),
    duty: bridge.control,
    logger,
  });
  bridge.listener = integrations;
  return {
    sim,
    bridge,
    integrations,
    warnings: () => at('WARN'),
    lines,
    stub: (resource) => sim.exports[resource] as StubExports,
  };
}
