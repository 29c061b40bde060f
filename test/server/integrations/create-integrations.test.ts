import { describe, expect, it } from 'vitest';
import { createIntegrations } from '../../../server/integrations/create-integrations.js';
import { RCORE_EVENTS } from '../../../server/integrations/rcore-police.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import { defaultConfig } from '../../../shared/config/index.js';
import type { BridgeConfig } from '../../../shared/config/schema.js';
import { LSPD, onDuty } from './support/duty-changes.js';
import { FakeBridge } from './support/fake-bridge.js';
import { FakeResources, recordingLogger } from './support/fake-resources.js';

function setup(integrationsConfig: Partial<BridgeConfig['Integrations']>) {
  const resources = new FakeResources();
  const bridge = new FakeBridge();
  const log = recordingLogger();
  const integrations = createIntegrations({
    config: { ...defaultConfig().Integrations, ...integrationsConfig },
    resources,
    duty: bridge.control,
    logger: log.logger,
    store: createMemoryStore(),
    wallNow: () => 0,
    connectedPlayers: () => [],
  });
  bridge.listener = integrations;
  return { resources, bridge, log, integrations };
}

describe('createIntegrations', () => {
  it('creates only what config.lua turns on', () => {
    expect(setup({}).integrations.integrations).toEqual([]);
    expect(setup({ JobFramework: 'auto', RcorePolice: true }).integrations.integrations.map((i) => i.name)).toEqual([
      'job framework',
      'rcore_police',
    ]);
    expect(setup({ RcorePolice: true }).integrations.integrations.map((i) => i.name)).toEqual(['rcore_police']);
  });

  it('never lets an integration throw into the bridge, and says which failed once', () => {
    const { resources, bridge, log } = setup({ RcorePolice: true });
    resources.start('rcore_police');
    resources.listen(RCORE_EVENTS.setPlayerDuty, () => {
      throw new Error('handler broke');
    });
    expect(() => bridge.change(onDuty(3, LSPD, LSPD.officer))).not.toThrow();
    expect(() => bridge.change(onDuty(4, LSPD, LSPD.officer))).not.toThrow();
    expect(log.at('WARN')).toEqual(['WARN: the rcore_police integration failed on a duty change: handler broke']);
  });
});
