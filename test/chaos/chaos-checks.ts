// What the chaos test checks once the world is quiet (docs/reliability.md, "Randomized faults"): pure functions of
// what the harness recorded, so each can be shown to fail on a history that breaks it (chaos-checks.test.ts).
//   (a) every open duty at the panel is held by exactly one game session, in the same department;
//   (b) no game session is on duty without its open duty at the panel;
//   (c) no `off` left a server whose fence was stale: each attempt left within the lease of a confirmation that server
//       wrote in Redis, and that confirmation did not overwrite a higher fence;
//   (d) every duty change a player made reached the panel, or a later change of the account superseded it: each
//       account's last shift is at the panel, and its end, if a player ended it, reached it by an `off`.
import type { ChaosRecord, GameDuty, PanelSession } from './chaos-record.js';

export type CheckName = 'a' | 'b' | 'c' | 'd';

export interface Violation {
  check: CheckName;
  text: string;
}

const open = (sessions: readonly PanelSession[]) => sessions.filter((session) => session.endedAt === null);
const who = (duty: GameDuty) => `server ${duty.server}'s player ${duty.player}`;
const ms = (us: number) => Math.floor(us / 1000);

/** (a) and (b): the panel's open duties and the games' agree, one session per account. */
export function checkAgreement(record: ChaosRecord): Violation[] {
  const violations: Violation[] = [];
  const panelOpen = open(record.panelSessions);
  for (const session of panelOpen) {
    const holders = record.gameDuties.filter((duty) => duty.chatId === session.chatId);
    const inDepartment = holders.filter((duty) => duty.departmentId === session.departmentId);
    if (holders.length !== 1 || inDepartment.length !== 1) {
      const held = holders.map((duty) => `${who(duty)} in ${duty.departmentId}`).join(', ') || 'no game session';
      violations.push({
        check: 'a',
        text: `the panel has ${session.chatId} on duty in ${session.departmentId}; the games: ${held}`,
      });
    }
  }
  for (const duty of record.gameDuties) {
    const atPanel = panelOpen.find((session) => session.chatId === duty.chatId);
    if (atPanel?.departmentId !== duty.departmentId) {
      violations.push({
        check: 'b',
        text: `${who(duty)} (${duty.chatId}) is on duty in ${duty.departmentId}; the panel has ${atPanel ? `department ${atPanel.departmentId}` : 'no open duty'}`,
      });
    }
  }
  return violations;
}

/** A duty-owner record as the community writes it (server/community/duty-owner.lua.ts); undefined if it is not one. */
interface OwnerRecord {
  server: string;
  shift: string;
  fence: number;
  state: 'live' | 'ending' | 'ended';
  quiet: number | undefined;
}

function ownerRecord(text: string | null | undefined): OwnerRecord | undefined {
  if (!text) return undefined;
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    if (typeof raw.server !== 'string' || typeof raw.shift !== 'string') return undefined;
    const state = raw.state === 'ending' || raw.state === 'ended' || raw.state === 'live' ? raw.state : undefined;
    return {
      server: raw.server,
      shift: raw.shift,
      fence: Number(raw.fence ?? 0) || 0,
      // A record without a state (written before fences) is live unless it says it ended.
      state: state ?? (raw.ended === true ? 'ended' : 'live'),
      quiet: raw.quiet === undefined ? undefined : Number(raw.quiet),
    };
  } catch {
    return undefined;
  }
}

/** The tap reads the clock in milliseconds: a write up to this long after `sentAtUs` may still have come before it. */
const TAP_RESOLUTION_US = 1_000;

/** (c): each `off` attempt left under a current fence, confirmed in Redis by the server that sent it. */
export function checkFences(record: ChaosRecord): Violation[] {
  const violations: Violation[] = [];
  for (const call of record.calls) {
    if (call.action !== 'off') continue;
    const what = `server ${call.server}'s off of ${call.chatId} at ${ms(call.sentAtUs)}`;
    const confirmation = record.writes.findLast(
      (write) =>
        write.server === call.server && write.chatId === call.chatId && write.atUs <= call.sentAtUs + TAP_RESOLUTION_US,
    );
    const confirmed = ownerRecord(confirmation?.value);
    if (!confirmation || !confirmed || confirmed.state === 'live') {
      violations.push({
        check: 'c',
        text: `${what} left unconfirmed: the last write of the record by that server before it was ${confirmation ? (confirmation.value ?? 'a deletion') : 'none'}`,
      });
      continue;
    }
    if (confirmed.quiet === undefined || ms(call.sentAtUs) > confirmed.quiet) {
      violations.push({
        check: 'c',
        text: `${what} left after its confirmation's lease (quiet ${confirmed.quiet ?? 'none'}): ${confirmation.value}`,
      });
      continue;
    }
    const before = ownerRecord(confirmation.before);
    const sameClaim = before && before.server === confirmed.server && before.shift === confirmed.shift;
    if (before && !sameClaim && before.state === 'live' && before.fence >= confirmed.fence) {
      violations.push({
        check: 'c',
        text: `${what} was confirmed over a live claim with a fence as high or higher: ${confirmation.before} became ${confirmation.value}`,
      });
    } else if (before && before.fence > confirmed.fence) {
      violations.push({
        check: 'c',
        text: `${what} was confirmed under fence ${confirmed.fence} while Redis held ${before.fence}: ${confirmation.before}`,
      });
    }
  }
  return violations;
}

/**
 * (d): every account's last shift (its latest `on` a player made) is what the panel has, and if a player ended it, an
 * `off` sent since reached the panel. Earlier shifts were superseded by it: their ends need not reach the panel (a
 * stale owner's `off` must not, check c). If it ended while an earlier session of the account is still on duty in
 * game, the community kept that earlier shift: it is the one the panel must have.
 */
export function checkChangesReached(record: ChaosRecord): Violation[] {
  const violations: Violation[] = [];
  const accounts = new Set(record.changes.map((change) => change.chatId));
  for (const chatId of accounts) {
    const changes = record.changes.filter((change) => change.chatId === chatId);
    const lastOn = changes.findLast((change) => change.kind === 'on');
    if (!lastOn) continue;
    const end = changes.find(
      (change) => change.kind === 'off' && change.session === lastOn.session && change.atUs >= lastOn.atUs,
    );
    const sessions = record.panelSessions.filter((session) => session.chatId === chatId);
    const atPanel = open(sessions)[0];
    const shift = `${chatId}'s last shift (on in ${lastOn.departmentId} on server ${lastOn.server} at ${ms(lastOn.atUs)}`;
    if (!end) {
      if (atPanel?.departmentId !== lastOn.departmentId) {
        const has = atPanel ? `department ${atPanel.departmentId}` : 'no open duty';
        violations.push({ check: 'd', text: `${shift}, still on) is not at the panel: it has ${has}` });
      }
      continue;
    }
    const ended = `${shift}, ended by ${end.cause} at ${ms(end.atUs)})`;
    // An earlier session still on duty in game: the community kept its shift over the later one (Redis lost the later
    // claim before anyone read it, seed 1002), so that shift is the account's now and the later end is superseded.
    const kept = record.gameDuties.find((duty) => duty.chatId === chatId);
    if (kept) {
      if (atPanel?.departmentId !== kept.departmentId) {
        const has = atPanel ? `department ${atPanel.departmentId}` : 'no open duty';
        violations.push({
          check: 'd',
          text: `${ended} was superseded by ${who(kept)}'s shift in ${kept.departmentId}, still on, which is not at the panel: it has ${has}`,
        });
      }
      continue;
    }
    if (atPanel) {
      violations.push({
        check: 'd',
        text: `${ended} is not at the panel: it still has department ${atPanel.departmentId} open`,
      });
      continue;
    }
    const at = ms(end.atUs);
    const openThen = sessions.some(
      (session) =>
        Date.parse(session.startedAt) <= at && (session.endedAt === null || Date.parse(session.endedAt) > at),
    );
    const offSince = record.calls.some(
      (call) => call.action === 'off' && call.chatId === chatId && call.status === 200 && call.sentAtUs >= end.atUs,
    );
    if (openThen && !offSince) {
      violations.push({
        check: 'd',
        text: `${ended}: the duty the panel had open then was ended by no off sent since`,
      });
    }
  }
  return violations;
}

export const CHECKS: Record<CheckName, (record: ChaosRecord) => Violation[]> = {
  a: (record) => checkAgreement(record).filter((violation) => violation.check === 'a'),
  b: (record) => checkAgreement(record).filter((violation) => violation.check === 'b'),
  c: checkFences,
  d: checkChangesReached,
};

/** The violations of the checks named (all four by default), in the order a, b, c, d. */
export function check(record: ChaosRecord, names: readonly CheckName[] = ['a', 'b', 'c', 'd']): Violation[] {
  return (['a', 'b', 'c', 'd'] as const).filter((name) => names.includes(name)).flatMap((name) => CHECKS[name](record));
}
