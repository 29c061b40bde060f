import { describe, expect, it } from 'vitest';
import { createIntegrations } from '../../server/integrations/create-integrations.js';
import { RCORE_EVENTS } from '../../server/integrations/rcore/rcore-police.js';
import { defaultConfig } from '../../shared/config/index.js';
import type { BridgeConfig } from '../../shared/config/schema.js';
import { LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { FakeBridge, fakeRcorePolice } from './support/fake-bridge.js';
import { fakeEsx } from './support/fake-frameworks.js';
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

  it('gives the job before rcore_police hears of duty, and takes it back after rcore_police heard duty ended', () => {
    const { resources, bridge } = setup({ JobFramework: 'esx', RcorePolice: true });
    fakeEsx(resources).load(3);
    fakeRcorePolice(resources);

    bridge.change(onDuty(3, LSPD, LSPD.officer));
    bridge.change(offDuty(3));

    expect(resources.sequence).toEqual([
      'es_extended.RunStaticPlayerMethod',
      'es_extended.RunStaticPlayerMethod',
      RCORE_EVENTS.setPlayerDuty,
      RCORE_EVENTS.setPlayerDuty,
      'es_extended.RunStaticPlayerMethod',
      'es_extended.RunStaticPlayerMethod',
    ]);
  });

  it("does not take a player off duty when rcore_police resets its duty because the bridge changed the player's job", () => {
    const { resources, bridge } = setup({ JobFramework: 'esx', RcorePolice: true });
    const esx = fakeEsx(resources);
    esx.load(3);
    const rcore = fakeRcorePolice(resources);
    // An rcore_police that ends duty whenever the job changes (esx:setJob → its jobUpdate).
    const setJob = resources.callExport.bind(resources);
    resources.callExport = (resource, name, ...args) => {
      const result = setJob(resource, name, ...args);
      if (name === 'RunStaticPlayerMethod' && args[1] === 'setJob') {
        rcore.states.set(3, false);
        resources.dispatch(RCORE_EVENTS.dutyChanged, [3, false]);
      }
      return result;
    };

    bridge.change(onDuty(3, LSPD, LSPD.officer));

    expect(bridge.takeOffDuty).not.toHaveBeenCalled();
    expect(bridge.onDuty.has(3)).toBe(true);
    expect(rcore.inService(3)).toBe(true);
    expect(esx.job(3)?.name).toBe('lspd');
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

  it('passes drops to every integration', () => {
    const { resources, bridge, integrations } = setup({ JobFramework: 'esx', RcorePolice: true });
    const esx = fakeEsx(resources);
    esx.load(3);
    const rcore = fakeRcorePolice(resources);
    bridge.change(onDuty(3, LSPD, LSPD.officer));
    bridge.change(offDuty(3, 'dropped'));
    integrations.playerDropped(3);

    // rcore_police clears a leaving player itself; the bridge does not send it anything for the drop.
    expect(resources.eventsNamed(RCORE_EVENTS.setPlayerDuty)).toEqual([[3, true]]);
    expect(esx.job(3)?.name).toBe('unemployed');
    // A new player 3 who is put on duty in rcore_police while off duty in the bridge is set back.
    rcore.toggle(3);
    expect(rcore.inService(3)).toBe(false);
  });
});
