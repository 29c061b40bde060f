// The duty rules alone: `decide` from a model and an input to the next model, the transitions and the calls. Each row
// is a rule the README states (one duty per chat account, replaced sessions, leaving before the answer, crash
// recovery, reconcile with a changed profile) or a row of the spec's state table (service-spec.md part 3). Every
// model here is built by decide itself from the empty one, as the duty store builds it.
import { describe, expect, it } from 'vitest';
import {
  type DecideContext,
  type DecideInput,
  type Decision,
  type DutyPlayer,
  type DutyStep,
  decide,
} from '../../../server/duty/decide.js';
import type { CallFence, DeliveryResult, DutyCall, PanelAnswer, SentCall } from '../../../server/duty/duty-call.js';
import type { DutyChange } from '../../../server/duty/duty-model.js';
import { type DutyModel, EMPTY_DUTY_MODEL, sessionOf } from '../../../server/duty/duty-model.js';
import type { PanelFailure } from '../../../server/panel/panel-result.js';
import type { ProfileEntry } from '../../../server/profiles/profile.js';
import type { DutyOutcome } from '../../../shared/events.js';

const ALEX = '284619375016482817';
const JAMIE = '1039284756102938475';
/** Sessions 7 and 9 are Alex's (a ghost and its reconnect), 8 is Jamie's, 5 has no chat account. */
const PLAYERS: Record<number, DutyPlayer | undefined> = {
  7: { chatId: ALEX, name: 'Alex' },
  9: { chatId: ALEX, name: 'Alex again' },
  8: { chatId: JAMIE, name: 'Jamie' },
};
const NOW = Date.UTC(2025, 5, 1, 20, 0, 0);
const CONTEXT: DecideContext = { now: NOW, panelDown: false, degradedMode: undefined, resumeWindowMs: 0 };
const QUEUE_WHILE_DOWN: DecideContext = { ...CONTEXT, panelDown: true, degradedMode: 'queue' };
/** Config.ResumeWindowMs = 300000. */
const RESUME: DecideContext = { ...CONTEXT, resumeWindowMs: 300_000 };

const department = (id: number, rankId: number) => ({
  id,
  slug: `dept${id}`,
  name: `Department ${id}`,
  rank: { id: rankId, name: `rank ${rankId}` },
  data: { vehicles: [], uniforms: [], equipment: [] },
});
/** The player's profile: each pair is a department id and the player's rank in it. */
const profile = (src: number, ...ranks: Array<[number, number]>): ProfileEntry => ({
  kind: 'found',
  chatId: PLAYERS[src]?.chatId ?? '',
  departments: ranks.map(([id, rankId]) => department(id, rankId)),
  fetchedAt: NOW,
});
/** The player's profile with department `id` (rank `rankId`) under another slug or name. */
const renamed = (src: number, id: number, rankId: number, slug: string, name = `Department ${id}`): ProfileEntry => ({
  kind: 'found',
  chatId: PLAYERS[src]?.chatId ?? '',
  departments: [{ ...department(id, rankId), slug, name }],
  fetchedAt: NOW,
});
const NOT_REGISTERED: ProfileEntry = { kind: 'not_registered', chatId: ALEX, fetchedAt: NOW };

const SENT: SentCall = { id: 41, result: new Promise<DeliveryResult>(() => {}) };
const DELIVERED: PanelAnswer = {
  kind: 'delivered',
  response: { ok: true, duty: { onDuty: true, departmentId: 1, rankId: 2 } },
};
const refused = (code: string, kind: PanelFailure['kind'] = 'rejected'): PanelAnswer => ({
  kind: 'refused',
  failure: { kind, code, message: `refused: ${code}`, status: 400 },
});

interface Replies {
  /** The profiles each wait for one gets, in order. */
  profiles?: Array<ProfileEntry | undefined>;
  /** The panel's answers to each awaited `on`, in order. */
  answers?: PanelAnswer[];
  context?: DecideContext;
}

interface Driven {
  state: DutyModel;
  changes: DutyChange[];
  /** Every step and wait of every decision, summarised, in order. */
  steps: string[];
  /** The fence of every call, in order: `shift <src>` (that session's claim), `unclaimed`, or `none`. */
  fences: string[];
  outcome: DutyOutcome | undefined;
}

const fenceSummary = (fence: CallFence | undefined) =>
  fence === undefined ? 'none' : 'unclaimed' in fence ? 'unclaimed' : `shift ${fence.shift.split(':')[0]}`;
function fenceOfStep(step: DutyStep): string | undefined {
  if (step.kind === 'send') return fenceSummary(step.call.fence);
  if (step.kind === 'withdraw') return step.undo ? fenceSummary(step.undo.fence) : undefined;
  if (step.kind === 'markApplied') return fenceSummary(step.fence);
  return undefined;
}

const callSummary = (call: DutyCall) =>
  call.action === 'on'
    ? `on ${call.body.chatId === ALEX ? 'alex' : 'jamie'} ${call.body.departmentId}/${call.body.rankId}`
    : `off ${call.body.chatId === ALEX ? 'alex' : 'jamie'} ${call.body.departmentId ?? 'account'}`;

function stepSummary(step: DutyStep): string | undefined {
  switch (step.kind) {
    case 'send':
      return `send ${callSummary(step.call)}${step.appliedInGame ? ' applied' : ''}`;
    case 'withdraw':
      return `withdraw ${step.id} undo ${step.undo ? callSummary(step.undo) : 'nothing'}`;
    case 'markApplied':
      return `markApplied ${step.id}`;
    case 'watchApplied':
      return `watch ${step.src} in ${step.departmentId}${step.retried ? ' retried' : ''}${step.sent ? ` (${step.sent.id})` : ''}`;
    case 'log':
      return `log ${step.level}`;
    case 'lapseAfter':
      return `held ${step.chatId === ALEX ? 'alex' : 'jamie'} for ${step.ms}`;
    case 'heldEnded':
      return `record of ${step.src} goes`;
    case 'transition': {
      const { change } = step;
      if (change.kind === 'off') return `${change.src} off (${change.reason}${change.resumable ? ', held' : ''})`;
      if (change.kind === 'on' && change.department.resumed) {
        return `${change.src} on ${change.next.departmentId}/${change.next.rankId} resumed`;
      }
      if (change.kind === 'renamed')
        return `${change.src} renamed ${change.next.departmentSlug} (${change.next.departmentName})`;
      return `${change.src} ${change.kind} ${change.next.departmentId}/${change.next.rankId}`;
    }
    default:
      return undefined;
  }
}

/** Runs decide through its waits, answering each from `replies`, as the interpreter does from the world. */
function drive(model: DutyModel, input: DecideInput, replies: Replies = {}): Driven {
  const profiles = [...(replies.profiles ?? [])];
  const answers = [...(replies.answers ?? [])];
  const changes: DutyChange[] = [];
  const steps: string[] = [];
  const fences: string[] = [];
  let next: DecideInput | undefined = input;
  let state = model;
  let decision: Decision | undefined;
  while (next) {
    decision = decide(state, next, replies.context ?? CONTEXT);
    state = decision.state;
    changes.push(...decision.changes);
    for (const step of decision.steps) {
      const summary = stepSummary(step);
      if (summary) steps.push(summary);
      const fence = fenceOfStep(step);
      if (fence) fences.push(fence);
    }
    const { wait } = decision;
    next = undefined;
    if (wait?.kind === 'profile') {
      if (profiles.length === 0) throw new Error('a profile was asked for that the row does not give');
      steps.push(`wait profile${wait.refetch ? ' (refetch)' : ''}`);
      next = { ...wait.resume, profile: profiles.shift() };
    } else if (wait?.kind === 'answer') {
      const answer = answers.shift();
      if (!answer) throw new Error('an answer was asked for that the row does not give');
      steps.push(`wait answer: ${answer.kind}`);
      next = { ...wait.resume, sent: SENT, answer };
    }
  }
  return { state, changes, steps, fences, outcome: decision?.outcome };
}

const on = (src: number, departmentId = 1): DecideInput => ({ kind: 'on', src, departmentId, player: PLAYERS[src] });
const off = (src: number, reason: 'request' | 'dropped' | 'admin' = 'request'): DecideInput => ({
  kind: 'off',
  src,
  reason,
  player: PLAYERS[src],
});

/** The model after `src` went on duty in `departmentId` at `rankId`, the panel accepting. */
function onDuty(src: number, departmentId = 1, rankId = 2, model: DutyModel = EMPTY_DUTY_MODEL): DutyModel {
  return drive(model, on(src, departmentId), { profiles: [profile(src, [departmentId, rankId])], answers: [DELIVERED] })
    .state;
}
const leaving = (src: number, model: DutyModel) => drive(model, { kind: 'leave', src }).state;
/** Another server's claim of the account won (server/community/duty-owners.ts). */
const taken = (src: number, reason: 'replaced' | 'superseded' = 'replaced', panelOff = false): DecideInput => ({
  kind: 'takenElsewhere',
  src,
  chatId: ALEX,
  reason,
  panelOff,
});

const ok = (changed: boolean, departmentId: number | null, rankId: number | null = null) =>
  expect.objectContaining({ ok: true, changed, onDuty: departmentId !== null, departmentId, rankId });
const refusal = (error: string) => expect.objectContaining({ ok: false, error });

interface Row {
  rule: string;
  model: () => DutyModel;
  input: DecideInput;
  replies?: Replies;
  steps: string[];
  outcome: unknown;
  /** Who holds each account afterwards. */
  holders?: Record<string, number>;
  /** The fence of each call sent (a send, a withdraw's undo, a markApplied), in order (duty-call.ts CallFence). */
  fences?: string[];
  /** The session each held shift dropped from, by account, afterwards. */
  held?: Record<string, number>;
}

const SPEC_TABLE: Row[] = [
  {
    rule: 'off duty, UpdatePlayerDuty(true) with a department selected: the panel gets an `on`, then on duty',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], answers: [DELIVERED] },
    steps: ['wait profile', 'send on alex 1/2', 'wait answer: delivered', '7 on 1/2'],
    outcome: ok(true, 1, 2),
    holders: { [ALEX]: 7 },
  },
  {
    rule: 'on duty, UpdatePlayerDuty(false): off duty at once, the panel gets an `off`',
    model: () => onDuty(7),
    input: off(7),
    steps: ['send off alex 1', '7 off (request)'],
    outcome: ok(true, null),
    holders: {},
  },
  {
    rule: 'any state, the player disconnects: off duty (dropped), the panel gets an `off`',
    model: () => leaving(7, onDuty(7)),
    input: off(7, 'dropped'),
    steps: ['send off alex 1', '7 off (dropped)'],
    outcome: ok(true, null),
    holders: {},
  },
  {
    rule: 'off duty, the player disconnects: nothing to end',
    model: () => leaving(7, EMPTY_DUTY_MODEL),
    input: off(7, 'dropped'),
    steps: [],
    outcome: ok(false, null),
  },
];

const README_RULES: Row[] = [
  {
    rule: 'one duty per chat account: a session going on duty replaces the account’s other one in game, no `off` for it',
    model: () => onDuty(7),
    input: on(9),
    replies: { profiles: [profile(9, [1, 2])], answers: [DELIVERED] },
    steps: ['wait profile', 'send on alex 1/2', 'wait answer: delivered', '7 off (replaced)', '9 on 1/2'],
    outcome: ok(true, 1, 2),
    holders: { [ALEX]: 9 },
  },
  {
    rule: 'a replaced session that is leaving went off duty by dropping',
    model: () => leaving(7, onDuty(7)),
    input: on(9),
    replies: { profiles: [profile(9, [1, 2])], answers: [DELIVERED] },
    steps: ['wait profile', 'send on alex 1/2', 'wait answer: delivered', '7 off (dropped)', '9 on 1/2'],
    outcome: ok(true, 1, 2),
    holders: { [ALEX]: 9 },
  },
  {
    rule: 'an `off` from a session that no longer holds the account’s duty never reaches the panel',
    model: () => onDuty(9, 1, 2, onDuty(7)),
    input: off(7),
    steps: [],
    outcome: ok(false, null),
    holders: { [ALEX]: 9 },
  },
  {
    rule: 'another server of the community took the account: the session holding it goes off duty in game only, no `off`',
    model: () => onDuty(7),
    input: taken(7),
    steps: ['7 off (replaced)'],
    outcome: ok(true, null),
    holders: {},
  },
  {
    rule: 'another server took the account while its session here was leaving: off duty by dropping, no `off`',
    model: () => leaving(7, onDuty(7)),
    input: taken(7),
    steps: ['7 off (dropped)'],
    outcome: ok(true, null),
    holders: {},
  },
  {
    rule: 'another server took the account, heard about a session that no longer holds it: nothing changes',
    model: () => onDuty(9, 1, 2, onDuty(7)),
    input: taken(7),
    steps: [],
    outcome: ok(false, null),
    holders: { [ALEX]: 9 },
  },
  {
    rule: 'another account’s duty is not touched',
    model: () => onDuty(8),
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], answers: [DELIVERED] },
    steps: ['wait profile', 'send on alex 1/2', 'wait answer: delivered', '7 on 1/2'],
    outcome: ok(true, 1, 2),
    holders: { [ALEX]: 7, [JAMIE]: 8 },
  },
  {
    rule: 'leaving before the panel answered: never on duty in game, the waiting `on` is withdrawn (ended by an `off` if it left)',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], answers: [{ kind: 'left' }] },
    steps: ['wait profile', 'send on alex 1/2', 'wait answer: left', 'withdraw 41 undo off alex 1'],
    outcome: refusal('profile_unavailable'),
    holders: {},
  },
  {
    rule: 'leaving before the answer, which then accepts: the `on` is ended at the panel with an `off`',
    model: () => leaving(7, EMPTY_DUTY_MODEL),
    input: { kind: 'answerToOn', ...answerResume(7), sent: SENT, answer: DELIVERED },
    steps: ['send off alex 1'],
    outcome: refusal('profile_unavailable'),
  },
  {
    rule: 'leaving before the answer while the account’s other session holds the same duty: nothing to undo',
    model: () => leaving(7, onDuty(9)),
    input: { kind: 'answerToOn', ...answerResume(7), sent: SENT, answer: { kind: 'left' } },
    steps: ['withdraw 41 undo nothing'],
    outcome: refusal('profile_unavailable'),
    holders: { [ALEX]: 9 },
  },
  {
    rule: 'leaving before the answer while another session holds another duty: that duty is sent again',
    model: () => leaving(7, onDuty(9, 3, 4)),
    input: { kind: 'answerToOn', ...answerResume(7), sent: SENT, answer: DELIVERED },
    steps: ['send on alex 3/4'],
    outcome: refusal('profile_unavailable'),
    holders: { [ALEX]: 9 },
  },
  {
    rule: 'a session that is leaving never goes on duty again',
    model: () => leaving(7, EMPTY_DUTY_MODEL),
    input: on(7),
    steps: [],
    outcome: refusal('profile_unavailable'),
  },
  {
    rule: 'crash recovery: every `off` is handed to the outbox before its transition is announced (and the crash record cleared)',
    model: () => onDuty(7),
    input: { kind: 'forceOff', src: 7, reason: 'resource_stop', player: PLAYERS[7] },
    steps: ['send off alex 1', '7 off (resource_stop)'],
    outcome: undefined,
    holders: {},
  },
  {
    rule: 'crash recovery: an `on` the game applies while the panel is down is kept as applied, so a restart ends it',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], context: QUEUE_WHILE_DOWN },
    steps: ['wait profile', 'send on alex 1/2 applied', '7 on 1/2', 'log info', 'watch 7 in 1'],
    outcome: ok(true, 1, 2),
    holders: { [ALEX]: 7 },
  },
  {
    rule: 'reconcile: a department removed from the profile ends the duty',
    model: () => onDuty(7),
    input: { kind: 'reconcile', src: 7, profile: profile(7, [3, 2]), player: PLAYERS[7] },
    steps: ['send off alex 1', '7 off (department_removed)'],
    outcome: ok(true, null),
    holders: {},
  },
  {
    rule: 'reconcile: an account the panel itself no longer knows ends the duty (account_removed) with an `off` for the account',
    model: () => onDuty(7),
    input: { kind: 'reconcile', src: 7, profile: NOT_REGISTERED, player: PLAYERS[7] },
    steps: ['send off alex account', '7 off (account_removed)'],
    outcome: ok(true, null),
    holders: {},
  },
  {
    rule: 'reconcile: a new rank is applied in game at once and sent to the panel as an applied `on`',
    model: () => onDuty(7),
    input: { kind: 'reconcile', src: 7, profile: profile(7, [1, 3]), player: PLAYERS[7] },
    steps: ['7 rank 1/3', 'send on alex 1/3 applied', 'watch 7 in 1'],
    outcome: ok(true, 1, 3),
    holders: { [ALEX]: 7 },
  },
  {
    rule: 'reconcile: a department renamed (same id and rank) is followed in game, with no panel call',
    model: () => onDuty(7),
    input: { kind: 'reconcile', src: 7, profile: renamed(7, 1, 2, 'lapd'), player: PLAYERS[7] },
    steps: ['7 renamed lapd (Department 1)'],
    outcome: ok(true, 1, 2),
    holders: { [ALEX]: 7 },
  },
  {
    rule: 'reconcile: a department given another name only is followed too',
    model: () => onDuty(7),
    input: { kind: 'reconcile', src: 7, profile: renamed(7, 1, 2, 'dept1', 'Los Angeles'), player: PLAYERS[7] },
    steps: ['7 renamed dept1 (Los Angeles)'],
    outcome: ok(true, 1, 2),
  },
  {
    rule: 'reconcile: a new rank and a new slug at once are one rank change that carries the new slug',
    model: () => onDuty(7),
    input: { kind: 'reconcile', src: 7, profile: renamed(7, 1, 3, 'lapd'), player: PLAYERS[7] },
    steps: ['7 rank 1/3', 'send on alex 1/3 applied', 'watch 7 in 1'],
    outcome: ok(true, 1, 3),
  },
  {
    rule: 'reconcile: the same department and rank change nothing',
    model: () => onDuty(7),
    input: { kind: 'reconcile', src: 7, profile: profile(7, [1, 2]), player: PLAYERS[7] },
    steps: [],
    outcome: ok(false, 1, 2),
    holders: { [ALEX]: 7 },
  },
  {
    rule: 'reconcile: a player off duty is not checked',
    model: () => EMPTY_DUTY_MODEL,
    input: { kind: 'reconcile', src: 7, profile: NOT_REGISTERED, player: PLAYERS[7] },
    steps: [],
    outcome: ok(false, null),
  },
  {
    rule: 'reconcile: a session that no longer holds the account takes the new rank in game only',
    model: () => onDuty(9, 3, 4, onDuty(7)),
    input: { kind: 'reconcile', src: 9, profile: profile(9, [3, 5]), player: PLAYERS[9] },
    steps: ['9 rank 3/5', 'send on alex 3/5 applied', 'watch 9 in 3'],
    outcome: ok(true, 3, 5),
    holders: { [ALEX]: 9 },
  },
];

const GOING_ON_DUTY: Row[] = [
  {
    rule: 'the department the player is on duty in already: nothing to do',
    model: () => onDuty(7),
    input: on(7),
    steps: [],
    outcome: ok(false, 1, 2),
  },
  {
    rule: 'another department while on duty: off (request), then the new `on`',
    model: () => onDuty(7),
    input: on(7, 3),
    replies: { profiles: [profile(7, [1, 2], [3, 4])], answers: [DELIVERED] },
    steps: [
      'wait profile',
      'send off alex 1',
      '7 off (request)',
      'send on alex 3/4',
      'wait answer: delivered',
      '7 on 3/4',
    ],
    outcome: ok(true, 3, 4),
    holders: { [ALEX]: 7 },
  },
  {
    rule: 'a player without a chat account cannot go on duty',
    model: () => EMPTY_DUTY_MODEL,
    input: { kind: 'on', src: 5, departmentId: 1, player: undefined },
    steps: [],
    outcome: refusal('profile_unavailable'),
  },
  {
    rule: 'no profile: refused, nothing sent',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [undefined] },
    steps: ['wait profile'],
    outcome: refusal('profile_unavailable'),
  },
  {
    rule: 'not a member of the department: refused, nothing sent',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7, 3),
    replies: { profiles: [profile(7, [1, 2])] },
    steps: ['wait profile'],
    outcome: refusal('not_member'),
  },
  {
    rule: 'the panel refuses as out of date: the profile is fetched again and the `on` tried once more',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2]), profile(7, [1, 3])], answers: [refused('rank_mismatch'), DELIVERED] },
    steps: [
      'wait profile',
      'send on alex 1/2',
      'wait answer: refused',
      'wait profile (refetch)',
      'send on alex 1/3',
      'wait answer: delivered',
      '7 on 1/3',
    ],
    outcome: ok(true, 1, 3),
  },
  {
    rule: 'refused as out of date twice: refused, no third try',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: {
      profiles: [profile(7, [1, 2]), profile(7, [1, 2])],
      answers: [refused('not_member'), refused('not_member')],
    },
    steps: [
      'wait profile',
      'send on alex 1/2',
      'wait answer: refused',
      'wait profile (refetch)',
      'send on alex 1/2',
      'wait answer: refused',
    ],
    outcome: refusal('panel_refused'),
  },
  {
    rule: 'an answer that contradicts the call: the account’s duty at the panel goes back to what the game has',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], answers: [refused('contradicts', 'contradicted')] },
    steps: ['wait profile', 'send on alex 1/2', 'wait answer: refused', 'send off alex account'],
    outcome: refusal('panel_refused'),
  },
  {
    rule: 'no answer in time: the `on` is withdrawn, refused',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], answers: [{ kind: 'timed_out' }] },
    steps: ['wait profile', 'send on alex 1/2', 'wait answer: timed_out', 'withdraw 41 undo off alex 1'],
    outcome: refusal('panel_unavailable'),
  },
  {
    rule: 'the panel known to be down, degraded mode refuse: refused at once, nothing sent',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], context: { ...CONTEXT, panelDown: true } },
    steps: ['wait profile'],
    outcome: refusal('panel_unavailable'),
  },
  {
    rule: 'the panel goes down while the player waits, degraded mode queue: on duty now, the `on` kept as applied',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], answers: [{ kind: 'panel_down' }] },
    steps: [
      'wait profile',
      'send on alex 1/2',
      'wait answer: panel_down',
      'markApplied 41',
      '7 on 1/2',
      'log info',
      'watch 7 in 1 (41)',
    ],
    outcome: ok(true, 1, 2),
    holders: { [ALEX]: 7 },
  },
];

const crashed = (src: number, resumable = true): DecideInput => ({
  kind: 'off',
  src,
  reason: 'dropped',
  resumable,
  player: PLAYERS[src],
});
/** Session 7 was on duty in department 1 at rank 2 and its game crashed: the shift is held for Alex. */
const held = (model = onDuty(7)) => drive(leaving(7, model), crashed(7), { context: RESUME }).state;
const resume = (src: number): DecideInput => ({ kind: 'resume', src, player: PLAYERS[src] });

const HELD_SHIFTS: Row[] = [
  {
    rule: 'a game that crashed or timed out, with ResumeWindowMs: off duty in game, the shift held, no `off`',
    model: () => leaving(7, onDuty(7)),
    input: crashed(7),
    replies: { context: RESUME },
    steps: ['7 off (dropped, held)', 'held alex for 300000'],
    outcome: ok(true, null),
    holders: {},
    held: { [ALEX]: 7 },
  },
  {
    rule: 'without ResumeWindowMs, a crash ends the shift as any drop does',
    model: () => leaving(7, onDuty(7)),
    input: crashed(7),
    steps: ['send off alex 1', '7 off (dropped)'],
    outcome: ok(true, null),
    held: {},
  },
  {
    rule: 'a drop the player chose ends the shift at once, ResumeWindowMs or not',
    model: () => leaving(7, onDuty(7)),
    input: crashed(7, false),
    replies: { context: RESUME },
    steps: ['send off alex 1', '7 off (dropped)'],
    outcome: ok(true, null),
    held: {},
  },
  {
    rule: 'a session of the account comes in: it takes the shift as the panel still grants it, with no call',
    model: () => held(),
    input: resume(9),
    replies: { profiles: [profile(9, [1, 2])], context: RESUME },
    steps: ['wait profile (refetch)', '9 on 1/2 resumed'],
    outcome: ok(true, 1, 2),
    holders: { [ALEX]: 9 },
    held: {},
  },
  {
    rule: 'a new rank meanwhile: the shift goes on with it, and the panel gets an `on` with it',
    model: () => held(),
    input: resume(9),
    replies: { profiles: [profile(9, [1, 3])], context: RESUME },
    steps: ['wait profile (refetch)', '9 on 1/3 resumed', 'send on alex 1/3 applied', 'watch 9 in 1'],
    outcome: ok(true, 1, 3),
    holders: { [ALEX]: 9 },
    held: {},
    // The resumed duty is the session's shift now: its new claim fences the `on`.
    fences: ['shift 9'],
  },
  {
    rule: 'the department was taken away meanwhile: the shift ends at the panel, the session stays off duty',
    model: () => held(),
    input: resume(9),
    replies: { profiles: [profile(9, [2, 4])], context: RESUME },
    steps: ['wait profile (refetch)', 'send off alex 1', 'record of 7 goes', 'log info'],
    outcome: ok(false, null),
    holders: {},
    held: {},
    fences: ['shift 7'],
  },
  {
    rule: 'the panel no longer knows the account: an `off` ends whatever duty it has',
    model: () => held(),
    input: resume(9),
    replies: { profiles: [NOT_REGISTERED], context: RESUME },
    steps: ['wait profile (refetch)', 'send off alex account', 'record of 7 goes', 'log info'],
    outcome: ok(false, null),
    held: {},
    fences: ['shift 7'],
  },
  {
    rule: 'no profile to decide with (the panel cannot be asked): the shift stays held',
    model: () => held(),
    input: resume(9),
    replies: { profiles: [undefined], context: RESUME },
    steps: ['wait profile (refetch)'],
    outcome: ok(false, null),
    held: { [ALEX]: 7 },
  },
  {
    rule: 'a session of an account with no held shift: nothing to ask',
    model: () => onDuty(8),
    input: resume(9),
    replies: { context: RESUME },
    steps: [],
    outcome: ok(false, null),
  },
  {
    rule: 'the window runs out: the panel gets the `off`, fenced by the shift’s claim, and the crash record goes after it',
    model: () => held(),
    input: { kind: 'heldLapsed', src: 7, chatId: ALEX },
    replies: { context: RESUME },
    steps: ['send off alex 1', 'record of 7 goes', 'log info'],
    outcome: ok(false, null),
    held: {},
    fences: ['shift 7'],
  },
  {
    rule: 'the end of an earlier window does nothing to a shift held again since',
    model: () => {
      const back = drive(held(), resume(9), { profiles: [profile(9, [1, 2])], context: RESUME }).state;
      return drive(leaving(9, back), crashed(9), { context: RESUME }).state;
    },
    input: { kind: 'heldLapsed', src: 7, chatId: ALEX },
    replies: { context: RESUME },
    steps: [],
    outcome: ok(false, null),
    held: { [ALEX]: 9 },
  },
  {
    rule: 'an `on` of the account meanwhile replaced the held shift at the panel: it ends without an `off`',
    model: () => held(),
    input: on(9, 2),
    replies: { profiles: [profile(9, [2, 4])], answers: [DELIVERED], context: RESUME },
    steps: ['wait profile', 'send on alex 2/4', 'wait answer: delivered', 'record of 7 goes', '9 on 2/4'],
    outcome: ok(true, 2, 4),
    holders: { [ALEX]: 9 },
    held: {},
  },
  {
    rule: 'another server of the community took the account while its shift was held here: it ends without an `off`',
    model: () => held(),
    input: taken(7),
    replies: { context: RESUME },
    steps: ['record of 7 goes', 'log info'],
    outcome: ok(false, null),
    held: {},
    fences: [],
  },
  {
    rule: 'settled on another server whose duty had ended: the held shift may be the one left at the panel, so an `off` that goes only while no live claim exists',
    model: () => held(),
    input: taken(7, 'superseded', true),
    replies: { context: RESUME },
    steps: ['send off alex 1', 'record of 7 goes', 'log info'],
    outcome: ok(false, null),
    held: {},
    fences: ['unclaimed'],
  },
  {
    rule: 'a held shift’s claim asked to restate: its `on` again, under its claim; the shift stays held',
    model: () => held(),
    input: { kind: 'restate', src: 7, chatId: ALEX },
    replies: { context: RESUME },
    steps: ['send on alex 1/2 applied'],
    outcome: ok(false, null),
    held: { [ALEX]: 7 },
    fences: ['shift 7'],
  },
  {
    rule: 'the server going away (txAdmin, the resource stopping) ends every held shift at the panel, fenced by its claim',
    model: () => held(),
    input: { kind: 'endHeldShifts' },
    replies: { context: RESUME },
    steps: ['send off alex 1', 'record of 7 goes'],
    outcome: undefined,
    held: {},
    fences: ['shift 7'],
  },
];

const refusedApplied = (src: number, code: string, retried = false, departmentId = 1): DecideInput => ({
  kind: 'queuedOnRefused',
  src,
  departmentId,
  since: NOW,
  failure: { kind: 'rejected', code, message: code, status: 400 },
  retried,
  player: PLAYERS[src],
});

const APPLIED_REFUSED: Row[] = [
  {
    rule: 'an applied `on` refused for good: off duty, the `off` ends whatever the account has at the panel',
    model: () => onDuty(7),
    input: refusedApplied(7, 'invalid_request'),
    steps: ['log warn', 'send off alex account', '7 off (department_removed)'],
    outcome: ok(true, null),
    holders: {},
  },
  {
    rule: 'an applied `on` refused as out of date: the profile is fetched again and what it says sent instead',
    model: () => onDuty(7),
    input: refusedApplied(7, 'rank_mismatch'),
    replies: { profiles: [profile(7, [1, 3])] },
    steps: ['wait profile (refetch)', 'send on alex 1/3 applied', 'watch 7 in 1 retried', '7 rank 1/3'],
    outcome: ok(true, 1, 3),
    holders: { [ALEX]: 7 },
  },
  {
    rule: 'an applied `on` refused as out of date, the department renamed meanwhile: sent again and followed',
    model: () => onDuty(7),
    input: refusedApplied(7, 'rank_mismatch'),
    replies: { profiles: [renamed(7, 1, 2, 'lapd')] },
    steps: [
      'wait profile (refetch)',
      'send on alex 1/2 applied',
      'watch 7 in 1 retried',
      '7 renamed lapd (Department 1)',
    ],
    outcome: ok(true, 1, 2),
  },
  {
    rule: 'an applied `on` refused as out of date, the department gone from the profile: off duty',
    model: () => onDuty(7),
    input: refusedApplied(7, 'not_member'),
    replies: { profiles: [profile(7, [3, 4])] },
    steps: ['wait profile (refetch)', 'log warn', 'send off alex account', '7 off (department_removed)'],
    outcome: ok(true, null),
  },
  {
    rule: 'an applied `on` refused because the panel no longer knows the account: off duty (account_removed)',
    model: () => onDuty(7),
    input: refusedApplied(7, 'user_not_found'),
    steps: ['log warn', 'send off alex account', '7 off (account_removed)'],
    outcome: ok(true, null),
    holders: {},
  },
  {
    rule: 'an applied `on` refused again after its retry: off duty',
    model: () => onDuty(7),
    input: refusedApplied(7, 'rank_mismatch', true),
    steps: ['log warn', 'send off alex account', '7 off (department_removed)'],
    outcome: ok(true, null),
  },
  {
    rule: 'a refusal of a duty the player has moved on from: nothing to undo',
    model: () => onDuty(7, 3, 4),
    input: refusedApplied(7, 'invalid_request'),
    steps: [],
    outcome: ok(false, 3, 4),
    holders: { [ALEX]: 7 },
  },
];

/**
 * Issue 30: every call that could undo a duty carries the claim it must still hold in the community's Redis
 * (server/community/outbox-fence-gate.ts confirms it right before each attempt), and the community's settlement comes back as
 * intents. Without BRIDGE_REDIS_URL the fences are not read.
 */
const FENCED: Row[] = [
  {
    rule: 'the `on` of a new duty is not fenced (its claim follows the panel taking it); its `off` goes under its claim',
    model: () => onDuty(7),
    input: off(7),
    steps: ['send off alex 1', '7 off (request)'],
    outcome: ok(true, null),
    fences: ['shift 7'],
  },
  {
    rule: 'a department switch: the `off` under the old claim, the new `on` unfenced',
    model: () => onDuty(7),
    input: on(7, 3),
    replies: { profiles: [profile(7, [1, 2], [3, 5])], answers: [DELIVERED] },
    steps: [
      'wait profile',
      'send off alex 1',
      '7 off (request)',
      'send on alex 3/5',
      'wait answer: delivered',
      '7 on 3/5',
    ],
    outcome: ok(true, 3, 5),
    fences: ['shift 7', 'none'],
  },
  {
    rule: 'an `on` that timed out is undone with an `off` that goes only while no live claim of the account exists',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], answers: [{ kind: 'timed_out' }] },
    steps: ['wait profile', 'send on alex 1/2', 'wait answer: timed_out', 'withdraw 41 undo off alex 1'],
    outcome: refusal('panel_unavailable'),
    fences: ['none', 'unclaimed'],
  },
  {
    rule: 'degraded mode queue, the panel down: the queued `on` goes under the claim its duty makes at once',
    model: () => EMPTY_DUTY_MODEL,
    input: on(7),
    replies: { profiles: [profile(7, [1, 2])], context: QUEUE_WHILE_DOWN },
    steps: ['wait profile', 'send on alex 1/2 applied', '7 on 1/2', 'log info', 'watch 7 in 1'],
    outcome: ok(true, 1, 2),
    fences: ['shift 7'],
  },
  {
    rule: 'a new rank of a player on duty: its `on` goes under the duty’s claim',
    model: () => onDuty(7),
    input: { kind: 'reconcile', src: 7, profile: profile(7, [1, 3]), player: PLAYERS[7] },
    steps: ['7 rank 1/3', 'send on alex 1/3 applied', 'watch 7 in 1'],
    outcome: ok(true, 1, 3),
    fences: ['shift 7'],
  },
  {
    rule: 'the community settled the account on another server after a fault: off in game (`superseded`), no `off`',
    model: () => onDuty(7),
    input: taken(7, 'superseded'),
    steps: ['7 off (superseded)'],
    outcome: ok(true, null),
    holders: {},
    fences: [],
  },
  {
    rule: 'settled on another server whose duty had ended: this session’s own may be left at the panel, so an `off` that goes only while no live claim exists',
    model: () => onDuty(7),
    input: taken(7, 'superseded', true),
    steps: ['send off alex 1', '7 off (superseded)'],
    outcome: ok(true, null),
    holders: {},
    fences: ['unclaimed'],
  },
  {
    rule: 'a claim that must send its `on` again: the holder’s duty, under its claim, as applied; no transition',
    model: () => onDuty(7),
    input: { kind: 'restate', src: 7, chatId: ALEX },
    steps: ['send on alex 1/2 applied'],
    outcome: ok(false, 1, 2),
    holders: { [ALEX]: 7 },
    fences: ['shift 7'],
  },
  {
    rule: 'a restate for a session that no longer holds the account (another session went on duty since): nothing',
    model: () => onDuty(9, 1, 2, onDuty(7)),
    input: { kind: 'restate', src: 7, chatId: ALEX },
    steps: [],
    outcome: ok(false, null),
    holders: { [ALEX]: 9 },
  },
];

describe('decide', () => {
  describe.each([
    ['the spec’s state table', SPEC_TABLE],
    ['the README’s rules', README_RULES],
    ['going on duty', GOING_ON_DUTY],
    ['an applied `on` the panel refused', APPLIED_REFUSED],
    ['fenced calls across the community', FENCED],
    ['a shift held after a crash (Config.ResumeWindowMs)', HELD_SHIFTS],
  ])('%s', (_table, rows) => {
    it.each(rows)('$rule', ({ model, input, replies, steps, outcome, holders, fences, held: heldAfter }) => {
      const before = model();
      const driven = drive(before, input, replies);
      expect(driven.steps).toEqual(steps);
      expect(driven.outcome).toEqual(outcome);
      if (fences) expect(driven.fences).toEqual(fences);
      if (holders) {
        const held: Record<string, number> = {};
        driven.state.holders.forEach((holder, chatId) => {
          held[chatId] = holder.src;
        });
        expect(held).toEqual(holders);
      }
      if (heldAfter) {
        const shifts: Record<string, number> = {};
        driven.state.held.forEach((shift, chatId) => {
          shifts[chatId] = shift.src;
        });
        expect(shifts).toEqual(heldAfter);
      }
      // The transitions are what the model says: each session's duty is its last transition's `next`.
      for (const change of driven.changes) {
        const last = driven.changes.filter((other) => other.src === change.src).at(-1);
        expect(sessionOf(driven.state, change.src)).toBe(last?.next);
      }
    });
  });

  it('changes nothing it is given: the model before a decision is the same value after it', () => {
    const before = onDuty(7);
    const alex = sessionOf(before, 7);
    const holders = before.holders;
    drive(before, on(9), { profiles: [profile(9, [3, 4])], answers: [DELIVERED] });
    drive(before, off(7));
    expect(sessionOf(before, 7)).toBe(alex);
    expect(before.holders).toBe(holders);
    expect(before.holders.get(ALEX)?.src).toBe(7);
  });

  it('announces a transition with the state before and after, the department and the account', () => {
    const { changes } = drive(onDuty(7), {
      kind: 'reconcile',
      src: 7,
      profile: profile(7, [1, 3]),
      player: PLAYERS[7],
    });
    expect(changes).toEqual([
      expect.objectContaining({
        kind: 'rank',
        src: 7,
        chatId: ALEX,
        previous: expect.objectContaining({ onDuty: true, rankId: 2, since: NOW }),
        next: {
          onDuty: true,
          departmentId: 1,
          departmentSlug: 'dept1',
          departmentName: 'Department 1',
          rankId: 3,
          since: NOW,
        },
        department: expect.objectContaining({ departmentId: 1, slug: 'dept1', rank: { id: 3, name: 'rank 3' } }),
      }),
    ]);
  });

  it('forgets a session: its duty, the account it held and its leaving', () => {
    const model = leaving(7, onDuty(7));
    const { state } = drive(model, { kind: 'forget', src: 7 });
    expect(state.sessions.size).toBe(0);
    expect(state.holders.size).toBe(0);
    expect(state.leaving.size).toBe(0);
  });
});

/** What an `on` of session `src` in department 1 at rank 2 hands on to the wait for its answer. */
function answerResume(src: number) {
  const player = PLAYERS[src] as DutyPlayer;
  return {
    src,
    player,
    department: department(1, 2),
    call: {
      action: 'on' as const,
      body: { chatId: player.chatId, departmentId: 1, rankId: 2, serverId: src, playerName: player.name },
    },
    attempt: 'first' as const,
  };
}
