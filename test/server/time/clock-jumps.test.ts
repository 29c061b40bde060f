// The server's wall clock jumps (vi.setSystemTime moves Date and leaves performance, the monotonic clock, alone):
// cooldowns and TTLs do not notice, and profiles kept in KVP are dated on the wall clock.
import { describe, expect, it, vi } from 'vitest';
import { ALEX, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../shared/events.js';
import { connect, departmentsCall, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const AN_HOUR = 3_600_000;
const FIVE_MINUTES = 300_000;
/** config.lua's default /dutyrefresh cooldown. */
const REFRESH_COOLDOWN = 30_000;

const notices = (running: Awaited<ReturnType<typeof startBridge>>, src: number) =>
  running.port.sentTo(src, INTERNAL_EVENTS.notify).map(([kind]) => kind);
const gets = (calls: string[]) => calls.filter((call) => call.startsWith('GET'));

describe('the wall clock jumps while the server runs', () => {
  it('set back an hour, /dutyrefresh is available again after its cooldown, not after an hour', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestRefresh(7);
    await settle();
    expect(notices(running, 7)).toEqual(['refreshed']);

    vi.setSystemTime(Date.now() - AN_HOUR);
    await elapse(REFRESH_COOLDOWN + 1_000);
    running.port.requestRefresh(7);
    await settle();
    expect(notices(running, 7)).toEqual(['refreshed', 'refreshed']);
  });

  it('set forward an hour, a profile fetched a minute ago is still fresh: no request', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(60_000);
    vi.setSystemTime(Date.now() + AN_HOUR);
    running.port.clientReady(7);
    await settle();
    expect(gets(running.calls())).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
  });
});

describe('profiles kept in KVP across a restart, dated on the wall clock', () => {
  it('one the wall clock puts an hour in the future (set back meanwhile) counts as fetched now: fresh for one TTL', async () => {
    const first = await startBridge(mock.panel, { store: createMemoryStore() });
    await connect(first, 7, ALEX);
    const store = first.port.store;
    first.bridge.stop();

    vi.setSystemTime(Date.now() - AN_HOUR);
    const second = await startBridge(mock.panel, { store });
    expect(second.port.linesWith('1 player profile(s) kept from the last run')).toHaveLength(1);
    await connect(second, 7, ALEX);
    expect(gets(second.calls())).toEqual([]);
    expect(second.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([[expect.objectContaining({ ok: true })]]);

    await elapse(FIVE_MINUTES + 1_000);
    second.port.clientReady(7);
    await settle();
    expect(gets(second.calls())).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
  });

  it('one fetched a minute before the restart, with the clock set forward an hour meanwhile, is stale', async () => {
    const first = await startBridge(mock.panel, { store: createMemoryStore() });
    await connect(first, 7, ALEX);
    const store = first.port.store;
    first.bridge.stop();

    await elapse(60_000);
    vi.setSystemTime(Date.now() + AN_HOUR);
    const second = await startBridge(mock.panel, { store });
    await connect(second, 7, ALEX);
    // Served from KVP at once, refreshed in the background.
    expect(second.port.sentTo(7, PUBLIC_EVENTS.profile)[0]).toEqual([expect.objectContaining({ ok: true })]);
    expect(gets(second.calls())).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
  });
});
