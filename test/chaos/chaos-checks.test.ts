// The chaos test's checks on records made by hand: each one fails on a history that breaks it, and passes on one that
// keeps it (a check that cannot fail would let every chaos run pass).
import { describe, expect, it } from 'vitest';
import { check, checkAgreement, checkChangesReached, checkFences } from './chaos-checks.js';
import type { ChaosRecord, DutyCallRecord, GameChange, PanelSession } from './chaos-record.js';
import type { OwnerWrite } from './redis-history.js';

const ALEX = '284619375016482817';
const JAMIE = '1039284756102938475';
const T = 1_800_000_000_000; // ms on the machine's clock
const iso = (ms: number) => new Date(ms).toISOString();
const us = (ms: number) => ms * 1000;

const record = (part: Partial<ChaosRecord>): ChaosRecord => ({
  panelSessions: [],
  gameDuties: [],
  calls: [],
  writes: [],
  changes: [],
  ...part,
});
const session = (chatId: string, departmentId: number, from: number, to: number | null = null): PanelSession => ({
  chatId,
  departmentId,
  startedAt: iso(from),
  endedAt: to === null ? null : iso(to),
});
const off = (server: number, atMs: number, status: DutyCallRecord['status'] = 200): DutyCallRecord => ({
  server,
  action: 'off',
  chatId: ALEX,
  departmentId: 1,
  sentAtUs: us(atMs),
  status,
});
const owner = (fields: Record<string, unknown>) => JSON.stringify({ shift: '1:5', fence: '100', dept: 1, ...fields });
const write = (server: number | undefined, atMs: number, value: string | null, before?: string | null): OwnerWrite => ({
  atUs: us(atMs),
  chatId: ALEX,
  value,
  before,
  server,
});

describe('(a) and (b): the panel and the games agree', () => {
  it('passes when each open duty is held by one session in its department', () => {
    const agreed = record({
      panelSessions: [session(ALEX, 1, T), session(JAMIE, 3, T, T + 5)],
      gameDuties: [{ server: 0, player: 1, chatId: ALEX, departmentId: 1 }],
    });
    expect(checkAgreement(agreed)).toEqual([]);
  });

  it('fails an open duty no game holds, one two games hold, and one held in another department', () => {
    expect(checkAgreement(record({ panelSessions: [session(ALEX, 1, T)] }))).toEqual([
      { check: 'a', text: `the panel has ${ALEX} on duty in 1; the games: no game session` },
    ]);
    const twice = record({
      panelSessions: [session(ALEX, 1, T)],
      gameDuties: [
        { server: 0, player: 1, chatId: ALEX, departmentId: 1 },
        { server: 2, player: 4, chatId: ALEX, departmentId: 1 },
      ],
    });
    expect(checkAgreement(twice).map((violation) => violation.check)).toEqual(['a']);
    const elsewhere = record({
      panelSessions: [session(ALEX, 1, T)],
      gameDuties: [{ server: 0, player: 1, chatId: ALEX, departmentId: 2 }],
    });
    expect(checkAgreement(elsewhere).map((violation) => violation.check)).toEqual(['a', 'b']);
  });

  it('fails a game session on duty without its duty at the panel', () => {
    const alone = record({ gameDuties: [{ server: 1, player: 2, chatId: JAMIE, departmentId: 3 }] });
    expect(checkAgreement(alone)).toEqual([
      { check: 'b', text: `server 1's player 2 (${JAMIE}) is on duty in 3; the panel has no open duty` },
    ]);
  });
});

describe('(c) every off left under a current fence', () => {
  const claimOf0 = owner({ server: 'a', state: 'live' });
  const confirmedBy0 = owner({ server: 'a', state: 'ending', by: 'a', quiet: String(T + 100) });

  it('passes an off that left within the lease of its server’s confirmation of the current claim', () => {
    const fenced = record({
      calls: [off(0, T + 10)],
      writes: [write(0, T, claimOf0, null), write(0, T + 5, confirmedBy0, claimOf0)],
    });
    expect(checkFences(fenced)).toEqual([]);
  });

  it('passes a peer’s off of a lapsed server’s claim, confirmed by the peer', () => {
    const byPeer = owner({ server: 'a', state: 'ending', by: 'b', quiet: String(T + 100) });
    const takenOver = record({
      calls: [off(1, T + 10)],
      writes: [write(0, T, claimOf0, null), write(1, T + 5, byPeer, claimOf0)],
    });
    expect(checkFences(takenOver)).toEqual([]);
  });

  it('fails an off its server never confirmed, or confirmed only by another server', () => {
    expect(checkFences(record({ calls: [off(0, T + 10)], writes: [write(0, T, claimOf0, null)] }))).toEqual([
      {
        check: 'c',
        text: `server 0's off of ${ALEX} at ${T + 10} left unconfirmed: the last write of the record by that server before it was ${claimOf0}`,
      },
    ]);
    const someoneElses = record({ calls: [off(2, T + 10)], writes: [write(0, T + 5, confirmedBy0, claimOf0)] });
    expect(checkFences(someoneElses).map((violation) => violation.text)).toEqual([
      `server 2's off of ${ALEX} at ${T + 10} left unconfirmed: the last write of the record by that server before it was none`,
    ]);
  });

  it('fails an off that left after its lease, and one confirmed over a higher fence', () => {
    const late = record({ calls: [off(0, T + 101)], writes: [write(0, T + 5, confirmedBy0, claimOf0)] });
    expect(checkFences(late).map((violation) => violation.text)).toEqual([
      `server 0's off of ${ALEX} at ${T + 101} left after its confirmation's lease (quiet ${T + 100}): ${confirmedBy0}`,
    ]);
    const higher = owner({ server: 'b', shift: '3:9', fence: '200', state: 'live' });
    const overIt = record({ calls: [off(0, T + 10)], writes: [write(0, T + 5, confirmedBy0, higher)] });
    expect(checkFences(overIt).map((violation) => violation.check)).toEqual(['c']);
  });

  it('ignores the ons and reads the write that came before each attempt', () => {
    const retried = record({
      calls: [{ ...off(0, T + 10), action: 'on' }, off(0, T + 10, 'failed'), off(0, T + 300)],
      writes: [
        write(0, T + 5, confirmedBy0, claimOf0),
        write(0, T + 290, owner({ server: 'a', state: 'ending', by: 'a', quiet: String(T + 390) }), confirmedBy0),
      ],
    });
    expect(checkFences(retried)).toEqual([]);
  });
});

describe('(d) every change a player made reached the panel or was superseded', () => {
  const change = (kind: 'on' | 'off', atMs: number, cause: GameChange['cause'] = 'request', at = 0): GameChange => ({
    chatId: ALEX,
    server: at,
    session: at + 1,
    kind,
    departmentId: 1,
    cause,
    atUs: us(atMs),
  });

  it('passes when the last shift is at the panel, and its end reached it by an off sent since', () => {
    const reached = record({
      changes: [change('on', T), change('off', T + 50, 'drop')],
      panelSessions: [session(ALEX, 1, T, T + 60)],
      calls: [off(0, T + 55)],
    });
    expect(checkChangesReached(reached)).toEqual([]);
    const onAgain = record({
      changes: [change('off', T), change('on', T + 50)],
      panelSessions: [session(ALEX, 1, T + 40)],
    });
    expect(checkChangesReached(onAgain)).toEqual([]);
  });

  it('passes a superseded shift whose end never reached the panel: a later on of another session took the account', () => {
    const superseded = record({
      changes: [change('on', T), change('on', T + 20, 'request', 1), change('off', T + 50)],
      panelSessions: [session(ALEX, 1, T)],
    });
    expect(checkChangesReached(superseded)).toEqual([]);
  });

  it('passes a last shift that ended while an earlier session, still on duty in game, has its duty at the panel', () => {
    // Seed 1002: on(0, Alex, 1), killRedis(), on(2, Alex, 1), crash(2). Redis came back empty, so server 0's claim
    // was the only one left; server 2's off after its restart was stale, and server 0's shift stays the account's.
    const kept = record({
      changes: [change('on', T), change('on', T + 20, 'request', 2), change('off', T + 21, 'crash', 2)],
      panelSessions: [session(ALEX, 1, T)],
      gameDuties: [{ server: 0, player: 1, chatId: ALEX, departmentId: 1 }],
    });
    expect(checkChangesReached(kept)).toEqual([]);
    expect(checkChangesReached({ ...kept, panelSessions: [session(ALEX, 1, T, T + 30)] })).toEqual([
      {
        check: 'd',
        text: `${ALEX}'s last shift (on in 1 on server 2 at ${T + 20}, ended by crash at ${T + 21}) was superseded by server 0's player 1's shift in 1, still on, which is not at the panel: it has no open duty`,
      },
    ]);
  });

  it('fails a last shift the panel does not have, and a last shift ended in game that the panel still has', () => {
    expect(checkChangesReached(record({ changes: [change('on', T)] })).map((violation) => violation.check)).toEqual([
      'd',
    ]);
    const stillOpen = record({
      changes: [change('on', T), change('off', T + 50, 'crash')],
      panelSessions: [session(ALEX, 1, T)],
    });
    expect(checkChangesReached(stillOpen).map((violation) => violation.text)).toEqual([
      `${ALEX}'s last shift (on in 1 on server 0 at ${T}, ended by crash at ${T + 50}) is not at the panel: it still has department 1 open`,
    ]);
  });

  it('fails a last shift whose end the panel has only through an off sent before it', () => {
    const endedByAnOlderOff = record({
      changes: [change('on', T), change('off', T + 50)],
      panelSessions: [session(ALEX, 1, T, T + 60)],
      calls: [off(1, T + 40)],
    });
    expect(checkChangesReached(endedByAnOlderOff).map((violation) => violation.check)).toEqual(['d']);
  });
});

it('runs the checks named, in order', () => {
  const broken = record({ panelSessions: [session(ALEX, 1, T)], calls: [off(0, T)] });
  expect(check(broken).map((violation) => violation.check)).toEqual(['a', 'c']);
  expect(check(broken, ['c']).map((violation) => violation.check)).toEqual(['c']);
});
