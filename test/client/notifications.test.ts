import { describe, expect, it, vi } from 'vitest';
import { type DutyOptions, startBridgeClient } from '../../client/bridge-client.js';
import { INTERNAL_EVENTS, type ProfilePayload, PUBLIC_EVENTS } from '../../shared/events.js';
import { createFakeClientPort, type FakeClientOptions } from './fake-client-port.js';

const profile: ProfilePayload = {
  ok: true,
  chatId: '284619375016482817',
  fetchedAt: 1,
  departments: [{ id: 1, slug: 'lspd', name: 'Los Santos Police Department', rank: { id: 2, name: 'Sergeant' } }],
};

const deptData = {
  departmentId: 1,
  slug: 'lspd',
  name: 'Los Santos Police Department',
  rank: { id: 2, name: 'Sergeant' },
  data: { vehicles: [], uniforms: [], equipment: [] },
};

function startClient(options: FakeClientOptions) {
  const fake = createFakeClientPort(options);
  startBridgeClient(fake.port);
  fake.fromServer(PUBLIC_EVENTS.profile, profile);
  return fake;
}

const goOnDuty = (fake: ReturnType<typeof createFakeClientPort>) => {
  fake.fromServer(PUBLIC_EVENTS.deptData, deptData);
  fake.fromServer(INTERNAL_EVENTS.dutyState, { onDuty: true, departmentId: 1, rankId: 2, since: 5 });
};

describe('notifications', () => {
  it('go to the feed when ox_lib is not running', () => {
    const notify = vi.fn();
    const fake = startClient({ resources: { ox_lib: 'stopped' }, exports: { ox_lib: { notify } } });
    goOnDuty(fake);
    expect(fake.notifications).toEqual(['You are now on duty: Los Santos Police Department, Sergeant.']);
    expect(notify).not.toHaveBeenCalled();
  });

  it("go through ox_lib's notify export while ox_lib is started, with a title and a type", () => {
    const notify = vi.fn();
    const fake = startClient({ resources: { ox_lib: 'started' }, exports: { ox_lib: { notify } } });
    goOnDuty(fake);
    fake.call('UpdatePlayerDuty', 'yes');
    expect(notify.mock.calls).toEqual([
      [{ title: 'Duty', description: 'You are now on duty: Los Santos Police Department, Sergeant.', type: 'success' }],
      [{ title: 'Duty', description: 'UpdatePlayerDuty needs true (on duty) or false (off duty).', type: 'error' }],
    ]);
    expect(fake.notifications).toEqual([]);
  });

  it("stay in the feed with Config.Notifications = 'feed', even with ox_lib started", () => {
    const notify = vi.fn();
    const fake = startClient({
      config: { Notifications: 'feed' },
      resources: { ox_lib: 'started' },
      exports: { ox_lib: { notify } },
    });
    goOnDuty(fake);
    expect(notify).not.toHaveBeenCalled();
    expect(fake.notifications).toHaveLength(1);
  });

  it('fall back to the feed when ox_lib has no notify export, saying so once', () => {
    const fake = startClient({ resources: { ox_lib: 'started' } });
    goOnDuty(fake);
    fake.fromServer(INTERNAL_EVENTS.notify, 'refreshed', {});
    expect(fake.notifications).toEqual([
      'You are now on duty: Los Santos Police Department, Sergeant.',
      'Your departments and ranks were refreshed.',
    ]);
    expect(fake.logs).toEqual([
      "ox_lib's notify failed, using the feed instead: Error: No such export notify in resource ox_lib",
    ]);
  });
});

describe("the owner's messages from config.lua", () => {
  it('replace the English text of notifications, the ox_lib title and the /dutyrefresh help', () => {
    const notify = vi.fn();
    const fake = startClient({
      config: {
        Locale: {
          on_duty: 'Dienst begonnen: {department}',
          notification_title: 'Dienst',
          dutyrefresh_help: 'Neu laden',
        },
      },
      resources: { ox_lib: 'started' },
      exports: { ox_lib: { notify } },
    });
    goOnDuty(fake);
    expect(notify).toHaveBeenCalledWith({
      title: 'Dienst',
      description: 'Dienst begonnen: Los Santos Police Department',
      type: 'success',
    });
    expect(fake.commands.get('dutyrefresh')?.help).toBe('Neu laden');
  });

  it('reach the message of GetDutyOptions and of a refused duty outcome', () => {
    const fake = createFakeClientPort({
      config: { Locale: { loading: 'Lädt noch.', panel_unavailable: 'Das Panel antwortet nicht.' } },
    });
    startBridgeClient(fake.port);
    expect(fake.call<DutyOptions>('GetDutyOptions').message).toBe('Lädt noch.');
    const callback = vi.fn();
    fake.call('UpdatePlayerDuty', false, callback);
    fake.fromServer(INTERNAL_EVENTS.dutyResult, 1, { ok: false, error: 'panel_unavailable', message: 'timeout' });
    expect(callback).toHaveBeenCalledWith({
      ok: false,
      error: 'panel_unavailable',
      message: 'Das Panel antwortet nicht.',
    });
    expect(fake.notifications).toEqual(['Das Panel antwortet nicht.']);
  });

  it('silence a message whose text is empty', () => {
    const fake = startClient({ config: { Locale: { on_duty: '' } } });
    goOnDuty(fake);
    expect(fake.notifications).toEqual([]);
  });

  it('name a department the client does not know with the fallback text', () => {
    const fake = startClient({ config: { Locale: { department_fallback: 'Abteilung {id}' } } });
    fake.fromServer(PUBLIC_EVENTS.offDuty, { departmentId: 9, reason: 'department_removed' });
    expect(fake.notifications).toEqual(['You were taken off duty: you are no longer a member of Abteilung 9.']);
  });

  it('fall back to English when config.lua cannot be read, saying why', () => {
    const fake = startClient({
      config: () => {
        throw new Error('No such export GetConfig in resource bridge');
      },
    });
    goOnDuty(fake);
    expect(fake.notifications).toEqual(['You are now on duty: Los Santos Police Department, Sergeant.']);
    expect(fake.logs).toEqual([
      'config.lua could not be read on the client (Error: No such export GetConfig in resource bridge); using English messages',
    ]);
  });
});
