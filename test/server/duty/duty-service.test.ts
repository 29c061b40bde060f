import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DutyChange } from '../../../server/duty/duty-model.js';
import { DutyService } from '../../../server/duty/duty-service.js';
import { Outbox } from '../../../server/duty/outbox.js';
import { createLogger } from '../../../server/kernel/log.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import type { PanelResult } from '../../../server/panel/panel-result.js';
import type { ProfileEntry } from '../../../server/profiles/profile.js';
import type { DutyResponse } from '../../../shared/contract/index.js';
import { START_TIME, settle, useVirtualTime } from '../support/virtual-runtime.js';

const ALEX = '284619375016482817';
const JAMIE = '1039284756102938475';
const CHAT_IDS: Record<number, string> = { 7: ALEX, 8: JAMIE };

const department = (id: number, rankId: number) => ({
  id,
  slug: `dept${id}`,
  name: `Department ${id}`,
  rank: { id: rankId, name: `rank ${rankId}` },
  data: { vehicles: [], uniforms: [], equipment: [] },
});
const profileWith = (chatId: string, departments: ReturnType<typeof department>[]): ProfileEntry => ({
  kind: 'found',
  chatId,
  departments,
  fetchedAt: START_TIME,
});
const profile = (chatId: string, rankId = 2): ProfileEntry => profileWith(chatId, [department(1, rankId)]);

const accepted = (chatId: string): PanelResult<DutyResponse> => ({
  ok: true,
  status: 200,
  value: {
    ok: true,
    changed: true,
    duty: { chatId, onDuty: true, departmentId: 1, rankId: 2, since: new Date(START_TIME).toISOString() },
  },
});

/** A duty service on a real outbox; the panel accepts every call, after `heldFor` holds its answer. */
function dutyService() {
  const held = new Map<string, () => void>();
  const holdFor = new Set<string>();
  const calls: Array<[action: 'on' | 'off', body: object]> = [];
  const panel = {
    setDuty: (action: 'on' | 'off', body: { chatId: string }) =>
      new Promise<PanelResult<DutyResponse>>((resolve) => {
        calls.push([action, body]);
        const answer = () => resolve(accepted(body.chatId));
        if (holdFor.has(body.chatId)) held.set(body.chatId, answer);
        else answer();
      }),
  };
  const logger = createLogger({ print: () => {} });
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const outbox = new Outbox({ store: createMemoryStore(), panel, logger, now: Date.now, sleep });
  const profiles = new Map<number, ProfileEntry>([
    [7, profile(ALEX)],
    [8, profile(JAMIE)],
  ]);
  const duty = new DutyService({
    outbox,
    logger,
    now: Date.now,
    sleep,
    onDutyWaitMs: 10_000,
    player: (src) => (CHAT_IDS[src] ? { chatId: CHAT_IDS[src], name: `player ${src}` } : undefined),
    profile: async (src) => profiles.get(src),
  });
  const changes: DutyChange[] = [];
  duty.dutyChanges$.subscribe((change) => changes.push(change));
  return {
    duty,
    changes,
    calls,
    holdAnswersFor: (chatId: string) => holdFor.add(chatId),
    answer: (chatId: string) => held.get(chatId)?.(),
    stop: () => {
      duty.stop();
      outbox.stop();
    },
  };
}

const summary = (change: DutyChange) =>
  `${change.src} ${change.kind}${change.kind === 'off' ? ` (${change.reason})` : ''}: rank ${change.previous.rankId} -> ${change.next.rankId}`;

let running: ReturnType<typeof dutyService> | undefined;
const start = () => {
  running = dutyService();
  return running;
};

beforeEach(() => useVirtualTime());
afterEach(() => {
  running?.stop();
  vi.useRealTimers();
});

describe('dutyChanges$', () => {
  it('announces going on duty, a new rank and going off duty with the state before and after', async () => {
    const { duty, changes } = start();

    await duty.request({ kind: 'on', src: 7, departmentId: 1 });
    duty.submit({ kind: 'reconcile', src: 7, profile: profile(ALEX, 3) });
    await settle();
    await duty.request({ kind: 'off', src: 7, reason: 'admin' });

    expect(changes.map(summary)).toEqual([
      '7 on: rank null -> 2',
      '7 rank: rank 2 -> 3',
      '7 off (admin): rank 3 -> null',
    ]);
    expect(changes[0]).toMatchObject({ chatId: ALEX, department: { departmentId: 1, slug: 'dept1', rank: { id: 2 } } });
    expect(changes[1]).toMatchObject({ department: { rank: { id: 3, name: 'rank 3' } } });
    expect(changes[2]).toMatchObject({ previous: { onDuty: true, departmentId: 1 }, next: { onDuty: false } });
  });

  it('tells a change an effect causes at once to every effect after the change that caused it', async () => {
    const { duty, changes } = start();
    await duty.request({ kind: 'on', src: 8, departmentId: 1 });
    // The first subscriber takes Jamie off duty as soon as it hears Alex went on duty; Jamie's lane is idle.
    const first: string[] = [];
    duty.dutyChanges$.subscribe((change) => {
      first.push(summary(change));
      if (change.src === 7 && change.kind === 'on') duty.submit({ kind: 'off', src: 8, reason: 'request' });
    });
    const last: string[] = [];
    duty.dutyChanges$.subscribe((change) => last.push(summary(change)));

    await duty.request({ kind: 'on', src: 7, departmentId: 1 });

    const inOrder = ['7 on: rank null -> 2', '8 off (request): rank 2 -> null'];
    expect(first).toEqual(inOrder);
    expect(last).toEqual(inOrder);
    expect(changes.map(summary).slice(1)).toEqual(inOrder);
  });
});

describe('a profile the duty is checked against', () => {
  it("ends the duty of an account the panel says it does not know (deleted or banned), and the account's duty there", async () => {
    const { duty, changes, calls } = start();
    await duty.request({ kind: 'on', src: 7, departmentId: 1 });

    duty.submit({
      kind: 'reconcile',
      src: 7,
      profile: { kind: 'not_registered', chatId: ALEX, fetchedAt: START_TIME },
    });
    await settle();

    expect(changes.map(summary)).toEqual(['7 on: rank null -> 2', '7 off (account_removed): rank 2 -> null']);
    expect(changes[1]).toMatchObject({ chatId: ALEX, previous: { departmentId: 1, departmentSlug: 'dept1' } });
    expect(calls.map(([action, body]) => [action, body])).toEqual([
      ['on', expect.objectContaining({ chatId: ALEX, departmentId: 1, rankId: 2 })],
      ['off', { chatId: ALEX }],
    ]);
    expect(duty.state(7)).toMatchObject({ onDuty: false, departmentSlug: null });
  });

  it('follows a department the panel renamed (same id and rank), without a call to the panel', async () => {
    const { duty, changes, calls } = start();
    await duty.request({ kind: 'on', src: 7, departmentId: 1 });
    const renamed = { ...department(1, 2), slug: 'renamed1', name: 'Renamed Department' };

    duty.submit({ kind: 'reconcile', src: 7, profile: profileWith(ALEX, [renamed]) });
    await settle();

    expect(changes.map(summary)).toEqual(['7 on: rank null -> 2', '7 renamed: rank 2 -> 2']);
    expect(changes[1]).toMatchObject({
      chatId: ALEX,
      previous: { departmentId: 1, departmentSlug: 'dept1', departmentName: 'Department 1' },
      next: { onDuty: true, departmentId: 1, departmentSlug: 'renamed1', departmentName: 'Renamed Department' },
      department: { departmentId: 1, slug: 'renamed1', name: 'Renamed Department', rank: { id: 2 } },
    });
    expect(duty.state(7)).toMatchObject({ onDuty: true, departmentSlug: 'renamed1', since: changes[0]?.next.since });
    expect(calls.map(([action]) => action)).toEqual(['on']);

    // The same profile again changes nothing; a new name alone is a rename too.
    duty.submit({ kind: 'reconcile', src: 7, profile: profileWith(ALEX, [renamed]) });
    duty.submit({
      kind: 'reconcile',
      src: 7,
      profile: profileWith(ALEX, [{ ...renamed, name: 'Department One' }]),
    });
    await settle();
    expect(changes.map(summary).slice(2)).toEqual(['7 renamed: rank 2 -> 2']);
    expect(changes[2]).toMatchObject({ next: { departmentSlug: 'renamed1', departmentName: 'Department One' } });
    expect(calls.map(([action]) => action)).toEqual(['on']);
  });

  it('takes a new slug with a new rank, and sends the panel the rank', async () => {
    const { duty, changes, calls } = start();
    await duty.request({ kind: 'on', src: 7, departmentId: 1 });

    duty.submit({
      kind: 'reconcile',
      src: 7,
      profile: profileWith(ALEX, [{ ...department(1, 3), slug: 'renamed1' }]),
    });
    await settle();

    expect(changes.map(summary)).toEqual(['7 on: rank null -> 2', '7 rank: rank 2 -> 3']);
    expect(changes[1]).toMatchObject({ next: { departmentSlug: 'renamed1', rankId: 3 } });
    expect(calls.map(([action, body]) => [action, body])).toEqual([
      ['on', expect.objectContaining({ departmentId: 1, rankId: 2 })],
      ['on', expect.objectContaining({ departmentId: 1, rankId: 3 })],
    ]);
  });

  it('leaves a player off duty as they are when the panel says their account is unknown', async () => {
    const { duty, changes, calls } = start();
    duty.submit({
      kind: 'reconcile',
      src: 7,
      profile: { kind: 'not_registered', chatId: ALEX, fetchedAt: START_TIME },
    });
    await settle();
    expect(changes).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe('requests', () => {
  it('each get their own outcome, whichever account the panel answers first', async () => {
    const { duty, holdAnswersFor, answer } = start();
    holdAnswersFor(ALEX);
    const alex = duty.request({ kind: 'on', src: 7, departmentId: 1 });
    const jamie = duty.request({ kind: 'on', src: 8, departmentId: 1 });
    let alexAnswered = false;
    void alex.then(() => {
      alexAnswered = true;
    });

    await expect(jamie).resolves.toMatchObject({ ok: true, changed: true, onDuty: true });
    expect(alexAnswered).toBe(false);
    answer(ALEX);
    await settle();
    await expect(alex).resolves.toMatchObject({ ok: true, changed: true, onDuty: true, departmentId: 1 });
  });
});

describe('dutyState$', () => {
  it("gives a player's duty now, then each change of theirs only", async () => {
    const { duty } = start();
    const seen: unknown[] = [];
    duty.dutyState$(7).subscribe((state) => seen.push(state.onDuty && state.rankId));

    await duty.request({ kind: 'on', src: 7, departmentId: 1 });
    await duty.request({ kind: 'on', src: 8, departmentId: 1 });
    duty.submit({ kind: 'reconcile', src: 7, profile: profile(ALEX, 4) });
    await settle();
    await duty.request({ kind: 'off', src: 7, reason: 'request' });

    expect(seen).toEqual([false, 2, 4, false]);
    expect(duty.state(7).onDuty).toBe(false);
  });
});
