import { afterEach, describe, expect, it } from 'vitest';
import { LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { type SimIntegrations, simIntegrations } from './support/sim-integrations.js';
import { STUB_RESOURCES } from './support/stub-resources.js';

const SET = (playerId: number, state: boolean) => ({ event: 'setPlayerDuty', playerId, state });
const ANNOUNCED = (playerId: number, state: boolean) => ({ event: 'SetDuty', playerId, state });

describe('the rcore_police integration against a stub rcore_police in the simulator', () => {
  let world: SimIntegrations | undefined;
  afterEach(async () => {
    world?.sim.assertNoErrors();
    await world?.sim.stop();
    world = undefined;
  });

  const start = async () => {
    world = await simIntegrations([STUB_RESOURCES.rcorePolice], { RcorePolice: true });
    return { rcore: world.stub('rcore_police'), bridge: world.bridge };
  };

  it('passes the bridge duty on with setPlayerDuty, and the SetDuty it answers with changes nothing', async () => {
    const { rcore, bridge } = await start();

    bridge.change(onDuty(3, LSPD, LSPD.officer));
    expect(rcore.isInService(3)).toBe(true);
    bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    bridge.change(offDuty(3));
    expect(rcore.isInService(3)).toBe(false);

    expect(rcore.calls()).toEqual([SET(3, true), ANNOUNCED(3, true), SET(3, false), ANNOUNCED(3, false)]);
    expect(bridge.takeOffDuty).not.toHaveBeenCalled();
  });

  it('takes a player who goes off duty in rcore_police off duty in the bridge, and sends nothing back', async () => {
    const { rcore, bridge } = await start();
    bridge.change(onDuty(3, LSPD, LSPD.officer));

    rcore.toggleDuty(3);

    expect(bridge.takeOffDuty).toHaveBeenCalledExactlyOnceWith(3, 'request');
    expect(bridge.onDuty.has(3)).toBe(false);
    expect(rcore.calls()).toEqual([SET(3, true), ANNOUNCED(3, true), ANNOUNCED(3, false)]);
  });

  it('sets rcore_police back off for a player who goes on duty there while off duty in the bridge, without a loop', async () => {
    const { rcore, bridge } = await start();

    rcore.toggleDuty(3);
    await world?.sim.tick(5);

    expect(rcore.isInService(3)).toBe(false);
    expect(rcore.calls()).toEqual([ANNOUNCED(3, true), SET(3, false), ANNOUNCED(3, false)]);
    expect(bridge.onDuty.has(3)).toBe(false);
  });

  it('warns once when rcore_police is stopped, and passes duty on again after it restarted', async () => {
    const { bridge } = await start();
    const sim = world?.sim;
    if (!sim) throw new Error('no simulator');
    bridge.change(onDuty(3, LSPD, LSPD.officer));
    await sim.stopResource('rcore_police');
    await sim.tick(1);
    bridge.change(onDuty(4, LSPD, LSPD.officer));
    bridge.change(onDuty(5, LSPD, LSPD.officer));
    expect(world?.warnings()).toEqual([
      'WARN: Config.Integrations.RcorePolice is on, but rcore_police is stopped: duty is not passed on until it is started',
    ]);

    await sim.startResource('rcore_police');
    await sim.tick(1);
    bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    const rcore = world?.stub('rcore_police');
    expect(rcore?.isInService(3)).toBe(true);
    expect(rcore?.calls()).toEqual([SET(3, true), ANNOUNCED(3, true)]);
  });

  it('with a job framework too: the job is set before rcore_police hears of duty', async () => {
    world = await simIntegrations([STUB_RESOURCES.esx, STUB_RESOURCES.rcorePolice], {
      JobFramework: 'esx',
      RcorePolice: true,
    });
    const esx = world.stub('es_extended');
    esx.loadPlayer(3);
    const seen: string[] = [];
    world.sim.on('esx:setJob', (args) => seen.push(`esx:setJob ${String((args[1] as { name: string }).name)}`));
    world.sim.on('rcore_police:server:SetDuty', (args) => seen.push(`SetDuty ${String(args[1])}`));

    world.bridge.change(onDuty(3, LSPD, LSPD.officer));
    world.bridge.change(offDuty(3));

    expect(seen).toEqual(['esx:setJob lspd', 'SetDuty true', 'SetDuty false', 'esx:setJob unemployed']);
  });
});
