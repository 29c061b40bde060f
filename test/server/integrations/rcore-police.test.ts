import { beforeEach, describe, expect, it } from 'vitest';
import { createRcorePoliceIntegration, RCORE_EVENTS } from '../../../server/integrations/rcore-police.js';
import { BCSO, LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { FakeBridge, fakeRcorePolice } from './support/fake-bridge.js';
import { FakeResources, recordingLogger } from './support/fake-resources.js';

const SET = RCORE_EVENTS.setPlayerDuty;

describe('rcore_police', () => {
  let resources: FakeResources;
  let bridge: FakeBridge;
  let log: ReturnType<typeof recordingLogger>;

  const setup = () => {
    const integration = createRcorePoliceIntegration({ resources, duty: bridge.control, logger: log.logger });
    bridge.listener = integration;
    return integration;
  };

  beforeEach(() => {
    resources = new FakeResources();
    bridge = new FakeBridge();
    log = recordingLogger();
  });

  describe('from the bridge to rcore_police', () => {
    it('passes on duty and off duty with setPlayerDuty, and ignores the echo rcore_police answers with', () => {
      const rcore = fakeRcorePolice(resources);
      setup();

      bridge.change(onDuty(3, LSPD, LSPD.officer));
      expect(rcore.inService(3)).toBe(true);
      bridge.change(offDuty(3));
      expect(rcore.inService(3)).toBe(false);

      expect(resources.eventsNamed(SET)).toEqual([
        [3, true],
        [3, false],
      ]);
      expect(bridge.takeOffDuty).not.toHaveBeenCalled();
    });

    it('recognises the echo of its own call even when told of a change before the bridge recorded it', () => {
      const rcore = fakeRcorePolice(resources);
      const integration = setup();
      integration.dutyChanged(onDuty(3, LSPD, LSPD.officer));
      expect(rcore.inService(3)).toBe(true);
      expect(resources.eventsNamed(SET)).toEqual([[3, true]]);
    });

    it('sends nothing for a new rank or department while on duty, nor for a player who left', () => {
      fakeRcorePolice(resources);
      setup();
      bridge.change(onDuty(3, LSPD, LSPD.officer));
      bridge.change(onDuty(3, LSPD, LSPD.sergeant));
      bridge.change(onDuty(3, BCSO, BCSO.deputy));
      bridge.change(offDuty(3, 'dropped'));
      expect(resources.eventsNamed(SET)).toEqual([[3, true]]);
    });

    it('passes duty on again after rcore_police restarted, which forgets everybody', () => {
      const rcore = fakeRcorePolice(resources);
      setup();
      bridge.change(onDuty(3, LSPD, LSPD.officer));
      rcore.restart();
      bridge.change(onDuty(3, LSPD, LSPD.sergeant));
      expect(rcore.inService(3)).toBe(true);
    });

    it('warns once when rcore_police is not started, then passes duty on once it is', () => {
      setup();
      bridge.change(onDuty(3, LSPD, LSPD.officer));
      bridge.change(onDuty(4, LSPD, LSPD.officer));
      expect(log.at('WARN')).toEqual([
        'WARN: Config.Integrations.RcorePolice is on, but rcore_police is missing: duty is not passed on until it is started',
      ]);
      expect(resources.emitted).toEqual([]);

      const rcore = fakeRcorePolice(resources);
      bridge.change(onDuty(5, LSPD, LSPD.officer));
      expect(rcore.inService(5)).toBe(true);
    });
  });

  describe('from rcore_police to the bridge', () => {
    it('takes a player who goes off duty in rcore_police off duty in the bridge, without telling rcore_police back', () => {
      const rcore = fakeRcorePolice(resources);
      setup();
      bridge.change(onDuty(3, LSPD, LSPD.officer));

      rcore.toggle(3);

      expect(bridge.takeOffDuty).toHaveBeenCalledExactlyOnceWith(3, 'request');
      expect(bridge.onDuty.has(3)).toBe(false);
      expect(rcore.inService(3)).toBe(false);
      expect(resources.eventsNamed(SET)).toEqual([[3, true]]);
      expect(log.lines).toContain('INFO: player 3 went off duty in rcore_police: taking them off duty');
    });

    it('sets rcore_police back off for a player who goes on duty there while off duty in the bridge, once', () => {
      const rcore = fakeRcorePolice(resources);
      setup();

      rcore.toggle(3);

      expect(rcore.inService(3)).toBe(false);
      expect(resources.eventsNamed(SET)).toEqual([[3, false]]);
      expect(bridge.onDuty.has(3)).toBe(false);
      expect(bridge.takeOffDuty).not.toHaveBeenCalled();
    });

    it('needs nothing when rcore_police announces what the bridge already has', () => {
      fakeRcorePolice(resources);
      setup();
      bridge.change(onDuty(3, LSPD, LSPD.officer));
      // An announcement that arrives later than the echo (rcore_police deferring it) agrees with the bridge.
      resources.dispatch(RCORE_EVENTS.dutyChanged, [3, true]);
      resources.dispatch(RCORE_EVENTS.dutyChanged, [4, false]);
      expect(resources.eventsNamed(SET)).toEqual([[3, true]]);
      expect(bridge.takeOffDuty).not.toHaveBeenCalled();
    });

    it('ignores announcements that name no player or no boolean state', () => {
      fakeRcorePolice(resources);
      setup();
      bridge.change(onDuty(3, LSPD, LSPD.officer));
      resources.dispatch(RCORE_EVENTS.dutyChanged, ['', false]);
      resources.dispatch(RCORE_EVENTS.dutyChanged, [3, 'OFF_SERVICE']);
      resources.dispatch(RCORE_EVENTS.dutyChanged, [0, false]);
      expect(bridge.onDuty.has(3)).toBe(true);
    });

    it('keeps running when the bridge throws while taking a player off duty, and says so once', () => {
      const rcore = fakeRcorePolice(resources);
      setup();
      bridge.change(onDuty(3, LSPD, LSPD.officer));
      bridge.change(onDuty(4, LSPD, LSPD.officer));
      bridge.takeOffDuty.mockImplementation(() => {
        throw new Error('duty service unavailable');
      });
      expect(() => rcore.toggle(3)).not.toThrow();
      expect(() => rcore.toggle(4)).not.toThrow();
      expect(log.at('WARN')).toEqual([expect.stringContaining('duty service unavailable')]);
    });
  });
});
