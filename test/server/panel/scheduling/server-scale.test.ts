import { describe, expect, it } from 'vitest';
import { population } from '../../../../bench/support/population.js';
import type { OutboxRecord } from '../../../../server/duty/outbox.js';
import { createMemoryStore } from '../../../../server/kernel/storage.js';
import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../../shared/events.js';
import { startBridge, useMockPanel } from '../../support/bridge-harness.js';
import { createVirtualRuntime, elapse, START_TIME } from '../../support/virtual-runtime.js';

const mock = useMockPanel();

const LIMIT_PER_MINUTE = 200;
/** 60 s / 200: the time one request of the budget is worth. */
const SLOT_MS = 300;

describe('a join storm of 500 players within a minute', () => {
  it('loads every profile with one request each, near the floor of 500 / 200 per minute, with no 429', async () => {
    const users = population(500);
    const panel = mock.replace({ data: users.data });
    const running = await startBridge(panel);
    const loaded = new Set<number>();
    const loadedAt = () => {
      for (const [index] of users.members.entries()) {
        const src = index + 1;
        if (
          !loaded.has(src) &&
          running.port.sentTo(src, PUBLIC_EVENTS.profile).some(([p]) => (p as { ok: boolean }).ok)
        ) {
          loaded.add(src);
        }
      }
      return loaded.size;
    };

    // Ten players a second for 50 s, each client asking for its profile 3 s after joining.
    for (let second = 0; second < 53; second++) {
      for (let i = 0; i < 10; i++) {
        const index = second * 10 + i;
        const member = users.members[index];
        if (second < 50 && member) running.port.join(index + 1, member.player);
        const ready = (second - 3) * 10 + i;
        if (second >= 3 && ready < 500) running.port.clientReady(ready + 1);
      }
      await elapse(1_000);
    }

    // Every 3 s a member whose profile arrived goes on duty while the storm goes on (a tenth of the budget):
    // each is answered within one budget slot.
    loadedAt();
    const toggles: Array<{ src: number; at: number; answeredIn?: number }> = [];
    const candidates = [...users.members.entries()].filter(
      ([index, member]) => member.department && loaded.has(index + 1),
    );
    for (let step = 0; step < 60_000 / 50; step++) {
      const next = candidates[toggles.length];
      if (step % 60 === 0 && next) {
        const [index, member] = next;
        running.port.requestDuty(index + 1, 1, true, member.department?.id);
        toggles.push({ src: index + 1, at: step * 50 });
      }
      await elapse(50);
      for (const toggle of toggles) {
        if (toggle.answeredIn === undefined && running.dutyResults(toggle.src).length > 0) {
          toggle.answeredIn = (step + 1) * 50 - toggle.at - 50;
        }
      }
    }
    expect(toggles).toHaveLength(20);
    expect(toggles.every((toggle) => toggle.answeredIn !== undefined && toggle.answeredIn <= SLOT_MS)).toBe(true);
    loadedAt();

    let seconds = 113;
    while (loadedAt() < 500 && seconds < 600) {
      await elapse(1_000);
      seconds += 1;
    }
    const floorSeconds = (500 / LIMIT_PER_MINUTE) * 60;
    expect(loaded.size).toBe(500);
    expect(seconds).toBeLessThanOrEqual(floorSeconds * 1.05 + 5);
    const calls = running.calls();
    expect(calls.filter((call) => call.startsWith('GET'))).toHaveLength(500);
    expect(calls.filter((call) => call.startsWith('POST'))).toHaveLength(20);
    expect(panel.controls.requests().filter((entry) => entry.status === 429)).toEqual([]);
    expect(running.port.sentTo(1, INTERNAL_EVENTS.dutyState).length).toBeGreaterThan(0);
  });
});

describe('a restart with a full outbox', () => {
  it('delivers every kept call in order per player, before any profile fetch, within the budget', async () => {
    const users = population(200, { memberEvery: 1 });
    const panel = mock.replace({ data: users.data });
    // The last run went down in a long outage: each player went on duty in game (degraded mode) and off at the stop.
    const store = createMemoryStore();
    let id = 0;
    for (const member of users.members) {
      const department = member.department as { id: number; rankId: number };
      const records: OutboxRecord[] = [
        {
          id: ++id,
          call: {
            action: 'on',
            body: { chatId: member.chatId, departmentId: department.id, rankId: department.rankId },
          },
          createdAt: START_TIME - 120_000,
          appliedInGame: true,
        },
        {
          id: ++id,
          call: { action: 'off', body: { chatId: member.chatId, departmentId: department.id } },
          createdAt: START_TIME - 60_000,
        },
      ];
      for (const record of records) store.set(`outbox:${String(record.id).padStart(12, '0')}`, JSON.stringify(record));
    }
    store.set('outbox-sequence', String(id));

    // The order requests leave the bridge in (the panel logs them as they complete, a POST later than a GET).
    const dispatched: string[] = [];
    const runtime = {
      ...createVirtualRuntime(),
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        const request = input instanceof Request ? input : new Request(input, init);
        dispatched.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(input, init);
      },
    };
    const running = await startBridge(panel, { store, runtime });
    // The players come back at once.
    for (const [index, member] of users.members.entries()) running.port.join(index + 1, member.player);
    await elapse(4 * 60_000);

    expect(running.port.linesWith('sending 400 duty change(s) left from the last run')).toHaveLength(1);
    const calls = dispatched.slice(1);
    expect(calls.filter((call) => call.startsWith('POST'))).toHaveLength(400);
    expect(calls.filter((call) => call.startsWith('GET'))).toHaveLength(200);
    // Duty calls go first: every one left before the first profile fetch.
    const lastPost = calls.map((call) => call.startsWith('POST')).lastIndexOf(true);
    const firstGet = calls.findIndex((call) => call.startsWith('GET'));
    expect(lastPost).toBeLessThan(firstGet);
    for (const member of users.members) {
      expect(panel.controls.sessions(member.chatId)).toEqual([
        expect.objectContaining({ departmentId: member.department?.id, endedBy: 'off' }),
      ]);
    }
    expect(panel.controls.requests().filter((entry) => entry.status === 429)).toEqual([]);
    expect([...store.entries.keys()].filter((key) => key.startsWith('outbox:'))).toEqual([]);
  });
});
