import { describe, expect, it } from 'vitest';
import { LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { useSimIntegrations } from './support/sim-integrations.js';
import { STUB_RESOURCES } from './support/stub-resources.js';

const SET = (playerId: number, state: boolean) => ({ event: 'setPlayerDuty', playerId, state });
const ANNOUNCED = (playerId: number, state: boolean) => ({ event: 'SetDuty', playerId, state });

describe('the rcore_police integration against a stub rcore_police in the simulator', () => {
  const { open, world } = useSimIntegrations();

  const start = async () => {
    const opened = await open([STUB_RESOURCES.rcorePolice], { RcorePolice: true });
    return { rcore: opened.stub('rcore_police'), bridge: opened.bridge };
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
    await world().sim.tick(5);

    expect(rcore.isInService(3)).toBe(false);
    expect(rcore.calls()).toEqual([ANNOUNCED(3, true), SET(3, false), ANNOUNCED(3, false)]);
    expect(bridge.onDuty.has(3)).toBe(false);
  });

  it('warns once when rcore_police is stopped, and passes duty on again after it restarted', async () => {
    const { bridge } = await start();
    const sim = world().sim;
    if (!sim) throw new Error('no simulator');
    bridge.change(onDuty(3, LSPD, LSPD.officer));
    await sim.stopResource('rcore_police');
    await sim.tick(1);
    bridge.change(onDuty(4, LSPD, LSPD.officer));
    bridge.change(onDuty(5, LSPD, LSPD.officer));
    expect(world().warnings()).toEqual([
      'WARN: Config.Integrations.RcorePolice is on, but rcore_police is stopped: duty is not passed on until it is started',
    ]);

    await sim.startResource('rcore_police');
    await sim.tick(1);
    bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    const rcore = world().stub('rcore_police');
    expect(rcore?.isInService(3)).toBe(true);
    expect(rcore?.calls()).toEqual([SET(3, true), ANNOUNCED(3, true)]);
  });

  describe('with a job framework too: the bridge owns the job, rcore_police its own duty', () => {
    it('sets the job before rcore_police hears of duty, and gives the player their own back after it heard duty end', async () => {
      const w = await open([STUB_RESOURCES.esx, STUB_RESOURCES.rcorePolice], {
        JobFramework: 'esx',
        RcorePolice: true,
      });
      w.stub('es_extended').loadPlayer(3, 'char1:3');
      w.stub('es_extended').RunStaticPlayerMethod(3, 'setJob', 'mechanic', 1, false);
      const seen: string[] = [];
      w.sim.on('esx:setJob', (args) => seen.push(`esx:setJob ${String((args[1] as { name: string }).name)}`));
      w.sim.on('rcore_police:server:SetDuty', (args) => seen.push(`SetDuty ${String(args[1])}`));

      w.bridge.change(onDuty(3, LSPD, LSPD.officer));
      w.bridge.change(offDuty(3));

      expect(seen).toEqual(['esx:setJob lspd', 'SetDuty true', 'SetDuty false', 'esx:setJob mechanic']);
    });

    it("ESX: rcore_police's ESX duty rewrites the job's duty flag on every change, to the bridge's own value, and never the job", async () => {
      const w = await open(
        [STUB_RESOURCES.esx, STUB_RESOURCES.rcorePolice],
        { JobFramework: 'esx', RcorePolice: true },
        { rcore_stub_duty: 'ESX' },
      );
      const esx = w.stub('es_extended');
      esx.loadPlayer(3, 'char1:3');
      esx.RunStaticPlayerMethod(3, 'setJob', 'mechanic', 1, true);

      w.bridge.change(onDuty(3, LSPD, LSPD.officer));
      expect(esx.job(3)).toEqual({ name: 'lspd', grade: 0, onDuty: true });
      expect(w.stub('rcore_police').isInService(3)).toBe(true);
      w.bridge.change(offDuty(3));
      expect(esx.job(3)).toEqual({ name: 'mechanic', grade: 1, onDuty: true });
      expect(w.stub('rcore_police').isInService(3)).toBe(false);
      // rcore_police rewrote lspd with its own name and grade twice (on, then off); the bridge set lspd and mechanic.
      expect(
        (esx.calls() as Array<{ fn: string; name: string; onDuty: boolean }>)
          .slice(1)
          .filter((call) => call.fn === 'setJob')
          .map((c) => `${c.name} ${c.onDuty}`),
      ).toEqual(['lspd true', 'lspd true', 'lspd false', 'mechanic true']);
      expect(w.warnings()).toEqual([]);
      expect(w.bridge.takeOffDuty).not.toHaveBeenCalled();
    });

    for (const mode of ['QBCORE', 'NONE']) {
      it(`QBCore: scripts hear QBCore:Server:SetDuty once per change (rcore_police duty ${mode})`, async () => {
        const w = await open(
          [STUB_RESOURCES.qbcore, STUB_RESOURCES.rcorePolice],
          { JobFramework: 'qbcore', RcorePolice: true },
          { rcore_stub_duty: mode },
        );
        w.stub('qb-core').loadPlayer(3, 'QBC3');
        w.bridge.change(onDuty(3, LSPD, LSPD.officer));
        w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
        w.bridge.change(offDuty(3));
        expect(w.sim.eventsNamed('QBCore:Server:SetDuty').map((event) => event.args)).toEqual([
          [3, true],
          [3, false],
        ]);
        expect(w.stub('qb-core').job(3)).toMatchObject({ name: 'unemployed' });
      });
    }

    it("does not take a player off duty when rcore_police ends its duty because the bridge changed the player's job", async () => {
      const w = await open([STUB_RESOURCES.esx, STUB_RESOURCES.rcorePolice], {
        JobFramework: 'esx',
        RcorePolice: true,
      });
      w.stub('es_extended').loadPlayer(3, 'char1:3');
      // Whatever rcore_police's escrowed core does on a job change, say it ends its duty.
      w.sim.on('esx:setJob', (args) => {
        const [src, job, last] = args as [number, { name: string }, { name: string } | undefined];
        if (job.name !== last?.name) w.sim.emit('rcore_police:server:setPlayerDuty', src, false);
      });

      w.bridge.change(onDuty(3, LSPD, LSPD.officer));

      expect(w.bridge.takeOffDuty).not.toHaveBeenCalled();
      expect(w.bridge.onDuty.has(3)).toBe(true);
      expect(w.stub('rcore_police').isInService(3)).toBe(true);
      expect(w.stub('es_extended').job(3)).toMatchObject({ name: 'lspd' });
    });

    it('tells rcore_police nothing for a drop, gives the job back, and sets back a new player 3 who goes on duty there', async () => {
      const w = await open([STUB_RESOURCES.esx, STUB_RESOURCES.rcorePolice], {
        JobFramework: 'esx',
        RcorePolice: true,
      });
      w.stub('es_extended').loadPlayer(3, 'char1:3');
      w.bridge.change(onDuty(3, LSPD, LSPD.officer));
      w.drop(3, 'es_extended', 'bridge');

      expect(w.stub('rcore_police').calls()).toEqual([SET(3, true), ANNOUNCED(3, true)]);
      expect(w.stub('es_extended').stored('char1:3')).toMatchObject({ name: 'unemployed' });
      w.stub('rcore_police').toggleDuty(3);
      await w.sim.tick(2);
      expect(w.stub('rcore_police').isInService(3)).toBe(false);
    });
  });
});
