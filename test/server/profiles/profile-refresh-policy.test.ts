import { describe, expect, it } from 'vitest';
import { ALEX, LSPD, ROLES, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { population } from '../../../bench/support/population.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import { connect, departmentsCall, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { createMortalRuntime, elapse, START_TIME, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const FIVE_MINUTES = 300_000;
const gets = (calls: string[]) => calls.filter((call) => call.startsWith('GET'));
const profileOf = (running: Awaited<ReturnType<typeof startBridge>>, src: number) =>
  running.port.sentTo(src, PUBLIC_EVENTS.profile).at(-1)?.[0] as { ok: boolean; fetchedAt?: number } | undefined;

describe('profiles kept in resource KVP', () => {
  it('lets a restart storm of returning players cost no request while their profiles are within the TTL', async () => {
    const users = population(60);
    const panel = mock.replace({ data: users.data });
    const store = createMemoryStore();
    const { runtime, kill } = createMortalRuntime();
    const first = await startBridge(panel, { store, runtime });
    for (const [index, member] of users.members.entries()) first.port.join(index + 1, member.player);
    await elapse(30_000);
    expect(gets(first.calls())).toHaveLength(60);
    kill();
    first.bridge.stop();

    await elapse(60_000);
    const second = await startBridge(panel, { store });
    for (const [index, member] of users.members.entries()) {
      second.port.join(index + 1, member.player);
      second.port.clientReady(index + 1);
    }
    await settle();

    expect(second.port.linesWith('60 player profile(s) kept from the last run')).toHaveLength(1);
    expect(gets(second.calls())).toEqual([]);
    for (const index of users.members.keys()) expect(profileOf(second, index + 1)).toMatchObject({ ok: true });
  });

  it('serves a kept profile past its TTL at once and refreshes it in the background', async () => {
    const store = createMemoryStore();
    const { runtime, kill } = createMortalRuntime();
    const first = await startBridge(mock.panel, { store, runtime });
    await connect(first, 7, ALEX);
    kill();
    first.bridge.stop();
    await elapse(FIVE_MINUTES + 60_000);
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);

    const second = await startBridge(mock.panel, { store });
    mock.panel.controls.setLatency(2_000);
    second.port.join(7, ALEX);
    second.port.clientReady(7);
    await settle();
    // Sent without waiting for the panel: the one from the last run.
    expect(second.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [expect.objectContaining({ ok: true, fetchedAt: START_TIME })],
    ]);

    await elapse(2_000);
    expect(gets(second.calls())).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
    expect(JSON.stringify(profileOf(second, 7))).toContain('Lieutenant');
  });

  it('forgets kept profiles older than a day and ignores damaged ones', async () => {
    const store = createMemoryStore();
    store.set('profile:284619375016482817', '{"ttlMs":300000,"entry":{"kind":"found"');
    store.set(
      'profile:1039284756102938475',
      JSON.stringify({
        ttlMs: FIVE_MINUTES,
        entry: { kind: 'not_registered', chatId: '1039284756102938475', fetchedAt: START_TIME - 2 * 86_400_000 },
      }),
    );
    const running = await startBridge(mock.panel, { store });

    expect(running.port.linesWith('kept from the last run')).toEqual([]);
    expect([...store.entries.keys()].filter((key) => key.startsWith('profile:'))).toEqual([]);
  });
});

describe('refreshing stale profiles', () => {
  it('refreshes a duty’s profile in the background and applies a new rank without taking the player off duty', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    // On duty with the stale profile, so the refresh below is the client's, not the on-duty polling's.
    await elapse(FIVE_MINUTES + 1);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);

    running.port.clientReady(7);
    await settle();

    expect(running.bridge.duty.state(7)).toMatchObject({
      onDuty: true,
      departmentId: LSPD.id,
      rankId: LSPD.lieutenant,
    });
  });

  it('checks a duty change against the profile it holds, even a stale one, without a request of its own', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(FIVE_MINUTES + 1);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();

    expect(running.bridge.duty.state(7).onDuty).toBe(true);
    expect(gets(running.calls())).toHaveLength(1);
  });

  it('refreshes department members before the others, and only with what the budget leaves', async () => {
    const users = population(40);
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 10, windowMs: 60_000 } });
    const store = createMemoryStore();
    const { runtime, kill } = createMortalRuntime();
    const first = await startBridge(panel, { store, runtime, config: { value: { RefreshIntervalMs: 60_000 } } });
    for (const [index, member] of users.members.entries()) first.port.join(index + 1, member.player);
    await elapse(5 * 60_000);
    kill();
    first.bridge.stop();
    await elapse(2 * 60_000);

    // Everyone comes back after their profiles went stale; civilians first, to show the order is not arrival's.
    const order = [...users.members.keys()].sort(
      (a, b) => Number(!!users.members[a]?.department) - Number(!!users.members[b]?.department),
    );
    const second = await startBridge(panel, { store, config: { value: { RefreshIntervalMs: 60_000 } } });
    for (const index of order) second.port.join(index + 1, users.members[index]?.player as never);
    await elapse(5 * 60_000);

    const refreshed = gets(second.calls()).map((call) => call.split('/')[4]);
    const isMember = (chatId: string | undefined) =>
      users.members.find((member) => member.chatId === chatId)?.department !== undefined;
    expect(refreshed).toHaveLength(40);
    // The first few civilians found the bridge idle and left at once (its small burst); then every member, then the
    // other civilians.
    const burst = refreshed.findIndex(isMember);
    expect(burst).toBeLessThanOrEqual(5);
    expect(refreshed.map(isMember)).toEqual([
      ...Array(burst).fill(false),
      ...Array(20).fill(true),
      ...Array(20 - burst).fill(false),
    ]);
    expect(panel.controls.requests().filter((entry) => entry.status === 429)).toEqual([]);
  });
});
