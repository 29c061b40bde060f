import { describe, expect, it } from 'vitest';
import {
  ALEX,
  BCSO,
  LSPD,
  NO_DEPARTMENTS,
  OTHER_GUILD_ONLY,
  playerWith,
  TWO_DEPARTMENTS,
  UNKNOWN_USER,
} from '../../../bench/support/demo-users.js';
import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../shared/events.js';
import { connect, departmentsCall, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, START_TIME, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const FIVE_MINUTES = 300_000;

describe('loading a profile when a player joins', () => {
  it('fetches the departments once at join and sends them when the client is ready', async () => {
    const running = await startBridge(mock.panel);

    running.port.join(7, ALEX);
    await settle();
    expect(running.calls()).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([]);

    running.port.clientReady(7);
    await settle();
    expect(running.calls()).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [
        {
          ok: true,
          chatId: TWO_DEPARTMENTS,
          departments: [
            {
              id: LSPD.id,
              slug: 'lspd',
              name: 'Los Santos Police Department',
              rank: { id: LSPD.sergeant, name: 'Sergeant' },
            },
            {
              id: BCSO.id,
              slug: 'bcso',
              name: "Blaine County Sheriff's Office",
              rank: { id: BCSO.deputy, name: 'Deputy' },
            },
          ],
          fetchedAt: START_TIME,
        },
      ],
    ]);
    expect(running.port.sentTo(7, INTERNAL_EVENTS.dutyState)).toEqual([
      [{ onDuty: false, departmentId: null, rankId: null, since: null }],
    ]);
  });

  it('shares one request between a join and a ready that arrive together', async () => {
    const running = await startBridge(mock.panel);
    mock.panel.controls.setLatency(300);

    running.port.join(7, ALEX);
    running.port.clientReady(7);
    running.port.clientReady(7);
    await elapse(299);
    expect(running.calls()).toEqual([]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([]);

    await elapse(1);
    expect(running.calls()).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toHaveLength(2);
  });

  it('keeps a player without departments in the game with an empty list', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, playerWith(NO_DEPARTMENTS));
    await connect(running, 8, playerWith(OTHER_GUILD_ONLY));

    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [expect.objectContaining({ ok: true, departments: [] })],
    ]);
    expect(running.port.sentTo(8, PUBLIC_EVENTS.profile)).toEqual([
      [expect.objectContaining({ ok: true, departments: [] })],
    ]);
  });

  it('makes no request for a player without a chat: identifier and tells them to link their account', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, { name: 'Nobody', identifiers: ['license:abc', 'discord:123456789012345678'] });

    expect(running.calls()).toEqual([]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [{ ok: false, error: 'no_identifier', message: expect.stringMatching(/link your chat account/i) }],
    ]);
  });

  it.each([
    ['too short', 'chat:12345'],
    ['letters', 'chat:28461937501648281x'],
    ['twenty digits', 'chat:28461937501648281700'],
    ['surrounding spaces', 'chat: 284619375016482817'],
  ])('makes no request for a malformed chat identifier (%s)', async (_name, identifier) => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, { name: 'Odd', identifiers: ['license:abc', identifier] });

    expect(running.calls()).toEqual([]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [{ ok: false, error: 'malformed_identifier', message: expect.any(String) }],
    ]);
  });

  it('refuses going on duty for a player without a usable identifier, without a panel call', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, { name: 'Nobody', identifiers: ['license:abc'] });

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();

    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: false, error: 'profile_unavailable' })]]);
    expect(running.calls()).toEqual([]);
  });

  it('answers a user the panel does not know (404) with not_registered and how to sync', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, playerWith(UNKNOWN_USER));

    expect(running.calls()).toEqual([departmentsCall(UNKNOWN_USER)]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [{ ok: false, error: 'not_registered', message: expect.stringContaining('/syncme') }],
    ]);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: false, error: 'profile_unavailable' })]]);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
  });
});

describe('the profile cache, in virtual time', () => {
  it('asks the panel again only once RefreshIntervalMs has passed', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    await elapse(FIVE_MINUTES - 1);
    running.port.clientReady(7);
    await settle();
    expect(running.calls()).toHaveLength(1);

    await elapse(2);
    running.port.clientReady(7);
    await settle();
    expect(running.calls()).toEqual([departmentsCall(TWO_DEPARTMENTS), departmentsCall(TWO_DEPARTMENTS)]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1)).toEqual([
      expect.objectContaining({ fetchedAt: START_TIME + FIVE_MINUTES + 1 }),
    ]);
  });

  it('follows RefreshIntervalMs from config.lua', async () => {
    const running = await startBridge(mock.panel, { config: { value: { RefreshIntervalMs: 60_000 } } });
    await connect(running, 7, ALEX);

    await elapse(30_000);
    running.port.clientReady(7);
    await settle();
    expect(running.calls()).toHaveLength(1);

    await elapse(30_001);
    running.port.clientReady(7);
    await settle();
    expect(running.calls()).toHaveLength(2);
  });

  it('uses the cached profile to check a duty request, without asking the panel again', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(60_000);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();

    expect(running.calls().filter((call) => call.startsWith('GET'))).toHaveLength(1);
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
  });

  it('keeps an answer that does not parse for a minute, like any answer: asking again meanwhile costs no request', async () => {
    const running = await startBridge(mock.panel);
    mock.panel.controls.setMalformed({ mode: 'invalid_json', rate: 1 });
    await connect(running, 7, ALEX);
    expect(running.calls()).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1)).toEqual([
      expect.objectContaining({ ok: false, error: 'panel_unavailable' }),
    ]);

    // Spaced within every per-player limit: what an honest menu could send, each of which needs the profile.
    for (let request = 1; request <= 5; request++) {
      await elapse(11_000);
      running.port.requestDuty(7, request, true, LSPD.id);
      await settle();
    }
    expect(running.calls()).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
    expect(running.dutyResults(7).map(([, outcome]) => (outcome as { error?: string }).error)).toEqual(
      Array(5).fill('profile_unavailable'),
    );

    mock.panel.controls.clearFaults('malformed');
    await elapse(5_001);
    running.port.requestDuty(7, 6, true, LSPD.id);
    await settle();
    expect(running.calls()).toEqual([
      departmentsCall(TWO_DEPARTMENTS),
      departmentsCall(TWO_DEPARTMENTS),
      'POST /api/leo/duty/on',
    ]);
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
  });

  it('keeps serving a stale profile when its refresh does not parse, and asks again only a minute later', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(FIVE_MINUTES + 1);
    mock.panel.controls.setMalformed({ mode: 'wrong_shape', rate: 1 });
    const gets = () => running.calls().filter((call) => call.startsWith('GET'));

    running.port.clientReady(7);
    await settle();
    expect(gets()).toHaveLength(2);

    await elapse(10_000);
    running.port.clientReady(7);
    await settle();
    expect(gets()).toHaveLength(2);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1)).toEqual([
      expect.objectContaining({ ok: true, fetchedAt: START_TIME }),
    ]);

    await elapse(51_000);
    running.port.clientReady(7);
    await settle();
    expect(gets()).toHaveLength(3);
  });

  it('asks again about an unregistered user after a minute, so a /syncme is picked up soon', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, playerWith(UNKNOWN_USER));

    await elapse(59_000);
    running.port.clientReady(7);
    await settle();
    expect(running.calls()).toHaveLength(1);

    await elapse(1_001);
    running.port.clientReady(7);
    await settle();
    expect(running.calls()).toHaveLength(2);
  });
});
