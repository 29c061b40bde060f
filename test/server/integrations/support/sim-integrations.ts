import { afterEach } from 'vitest';
import { createIntegrations, type Integrations } from '../../../../server/integrations/create-integrations.js';
import { createMemoryStore, type KeyValueStore } from '../../../../server/kernel/storage.js';
import { defaultConfig } from '../../../../shared/config/index.js';
import type { BridgeConfig } from '../../../../shared/config/schema.js';
import { createSim, type ResourceOption, type Sim } from '../../../../sim/index.js';
import { offDuty } from './duty-changes.js';
import { FakeBridge } from './fake-bridge.js';
import { recordingLogger } from './fake-resources.js';
import { simResourcePort } from './sim-resource-port.js';

type StubFn = (...args: unknown[]) => unknown;

/** The exports the stub resources of test/e2e/fixtures/stub_resources have (each has the ones of its framework). */
export interface StubExports {
  calls: StubFn;
  loadPlayer: StubFn;
  dropPlayer: StubFn;
  job: StubFn;
  jobs: StubFn;
  groups: StubFn;
  activeGroup: StubFn;
  stored: StubFn;
  toggleDuty: StubFn;
  isInService: StubFn;
  /** The frameworks' own exports the tests set players up with. */
  CallPlayer: StubFn;
  GetGroupActivePlayers: StubFn;
  AddPlayerToJob: StubFn;
  RemovePlayerFromJob: StubFn;
  SetPlayerPrimaryJob: StubFn;
  SetJobDuty: StubFn;
  GetPlayer: StubFn;
  GetCoreObject: StubFn;
  RunStaticPlayerMethod: StubFn;
  savePlayer: StubFn;
  savePlayers: StubFn;
  refreshJobs: StubFn;
  removeJob: StubFn;
  RemoveJob: StubFn;
}

export interface SimIntegrations {
  sim: Sim;
  bridge: FakeBridge;
  integrations: Integrations;
  /** The bridge's KVP: it outlives crash(). */
  store: KeyValueStore;
  warnings: () => string[];
  lines: string[];
  /** A stub resource's exports, called from the server's test runtime through msgpack. */
  stub: (resource: string) => StubExports;
  /**
   * A player leaving: the framework's playerDropped handler and the bridge's, in the order given (FiveM does not fix
   * the order across resources), then the bridge forgets them.
   */
  drop(src: number, framework: string, first: 'framework' | 'bridge'): void;
  /**
   * The server process dies (sim.kill: no playerDropped, no stop) and a new one starts on the same KVP, the
   * frameworks' and the bridge's: `bridge`, `integrations`, `warnings` and `lines` are the new run's afterwards.
   */
  crash(): Promise<void>;
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
  const store = createMemoryStore();

  const bridgeOn = async (): Promise<Pick<SimIntegrations, 'bridge' | 'integrations' | 'warnings' | 'lines'>> => {
    await sim.tick(1);
    const bridge = new FakeBridge();
    const { logger, lines, at } = recordingLogger();
    const integrations = createIntegrations({
      config: { ...defaultConfig().Integrations, ...config },
      resources: simResourcePort(sim),
      duty: bridge.control,
      logger,
      store,
      wallNow: () => sim.wallNow(),
      // No player is connected: the stubs load characters for ids the tests make up.
      connectedPlayers: () => [],
    });
    bridge.listener = integrations;
    return { bridge, integrations, warnings: () => at('WARN'), lines };
  };

  const world: SimIntegrations = {
    sim,
    store,
    ...(await bridgeOn()),
    stub: (resource) => sim.exports[resource] as StubExports,
    drop(src, framework, first) {
      if (first === 'framework') world.stub(framework).dropPlayer(src);
      if (world.bridge.onDuty.has(src)) world.bridge.change(offDuty(src, 'dropped'));
      world.integrations.playerDropped(src);
      if (first === 'bridge') world.stub(framework).dropPlayer(src);
    },
    async crash() {
      await sim.kill();
      await sim.restart();
      Object.assign(world, await bridgeOn());
    },
  };
  return world;
}

/**
 * A simulated world per test, opened with `open(...)` (simIntegrations' arguments); after each test it is checked for
 * script errors and stopped. `world()` is the open one.
 */
export function useSimIntegrations() {
  let current: SimIntegrations | undefined;
  afterEach(async () => {
    current?.sim.assertNoErrors();
    await current?.sim.stop();
    current = undefined;
  });
  return {
    open: async (...args: Parameters<typeof simIntegrations>): Promise<SimIntegrations> => {
      current = await simIntegrations(...args);
      return current;
    },
    world: (): SimIntegrations => {
      if (!current) throw new Error('no simulated world is open in this test');
      return current;
    },
  };
}
