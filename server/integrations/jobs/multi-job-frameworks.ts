// The frameworks with several jobs or groups per character, Qbox and ox_core: each one's adapter, which adds the
// department's job beside the player's own and makes it the one on duty.
import * as z from '../../../shared/zod-mini.js';
import type { ResourcePort } from '../integration.js';
import {
  type FrameworkAdapter,
  gradesByName,
  JOB_OK,
  type JobAssignment,
  type JobFailure,
  type JobOutcome,
  leftAlone,
  notLoaded,
  type PlayerRead,
  refused,
} from './job-framework.js';

const QBOX_RESOURCE = 'qbx_core';

/** What a Qbox player holds: the primary job (with its duty) and every job, by name, with its grade. */
export interface QboxJobs {
  primary: { name: string; grade: number; onDuty: boolean };
  jobs: Record<string, number>;
}

const QboxJobsSchema: z.ZodMiniType<QboxJobs, unknown> = z.object({
  primary: z.object({ name: z.string(), grade: z.number().check(z.int()), onDuty: z.boolean() }),
  jobs: z.record(z.string(), z.number().check(z.int())),
});

interface QboxPlayer {
  PlayerData?: {
    source?: unknown;
    citizenid?: unknown;
    job?: { name?: unknown; onduty?: unknown; grade?: { level?: unknown } };
    /** An empty Lua table crosses msgpack as []. */
    jobs?: Record<string, unknown> | unknown[];
  };
}

const UNEMPLOYED = 'unemployed';

/**
 * A Qbox answer: `true`, `false` (qbx_core printed why), or `false, { code, message }`, which reaches JS as an
 * array. A refusal carries the fix for its code.
 */
export function readQboxResult(result: unknown, fix: (code: string) => string): { ok: true } | JobFailure {
  if (result === true) return { ok: true };
  if (Array.isArray(result) && result[0] === false) {
    const { code, message } = (result[1] ?? {}) as { code?: unknown; message?: unknown };
    const detail = `${String(code ?? 'error')}: ${String(message ?? '')}`.trim();
    if (code === 'player_not_found') return notLoaded(`qbx_core: ${detail}`);
    return refused(detail, fix(String(code)));
  }
  if (result === false) return refused('qbx_core turned it down', "see qbx_core's console for why");
  return refused(`qbx_core answered ${JSON.stringify(result) ?? String(result)}`, "see qbx_core's console");
}

/**
 * Qbox (qbx_core), with its multi-job calls by citizenid, never `SetJob`: SetJob removes the current primary job
 * from the player's jobs when `qbx:setjob_replaces` is on (the default), and leaves the department's job behind
 * when it is off. On duty `AddPlayerToJob` puts the department's job beside the player's own (a grade they already
 * hold is changed), `SetPlayerPrimaryJob` makes it the primary one, and `SetJobDuty` (which fires
 * QBCore:Server:SetDuty and QBCore:Client:SetDuty) puts them on duty. Off duty the primary job and its duty go
 * back, and the department's job is removed only if the bridge added it (else its grade goes back).
 */
export function createQboxAdapter(resources: ResourcePort): FrameworkAdapter<QboxJobs> {
  const call = (name: string, ...args: unknown[]) => resources.callExport(QBOX_RESOURCE, name, ...args);

  const read = (src: number): PlayerRead<QboxJobs> => {
    const data = (call('GetPlayer', src) as QboxPlayer | null)?.PlayerData;
    const job = data?.job;
    if (!job || typeof data?.citizenid !== 'string') return notLoaded('qbx_core has no player with this id');
    const jobs = gradesByName(data.jobs);
    const primary = { name: String(job.name), grade: Number(job.grade?.level), onDuty: job.onduty === true };
    return { ok: true, character: data.citizenid, holdings: { primary, jobs } };
  };

  return {
    id: 'qbox',
    resource: QBOX_RESOURCE,
    label: 'Qbox',
    lowestGrade: 0,
    holds: 'group',
    noun: 'job',
    answersLater: false,
    holdingsSchema: QboxJobsSchema,
    read,
    give(src, { character, holdings }, { job, grade }) {
      const held = holdings.jobs[job];
      const fix = (code: string) => {
        if (code === 'max_jobs') {
          const count = Object.keys(holdings.jobs).length;
          return `set qbx:max_jobs_per_player ${count + 1} in server.cfg: the department's job needs a place beside the player's own ${count === 1 ? 'job' : `${count} jobs`}`;
        }
        if (code === 'job_not_found') return `add the job ${job} to qbx_core/shared/jobs.lua`;
        if (code === 'job_missing_grade') return `add grade ${grade} to the job ${job} in qbx_core/shared/jobs.lua`;
        return "see qbx_core's console";
      };
      const changed = held !== grade || holdings.primary.name !== job;
      if (held !== grade) {
        const added = readQboxResult(call('AddPlayerToJob', character, job, grade), fix);
        if (!added.ok) return added;
      }
      if (holdings.primary.name !== job) {
        const primary = readQboxResult(call('SetPlayerPrimaryJob', character, job), fix);
        if (!primary.ok) {
          if (held === undefined) call('RemovePlayerFromJob', character, job);
          else if (held !== grade) call('AddPlayerToJob', character, job, held);
          return primary;
        }
      }
      if (changed || !holdings.primary.onDuty) call('SetJobDuty', src, true);
      return JOB_OK;
    },
    giveBack(src, { character, holdings }, given, before) {
      const stillGiven = holdings.jobs[given.job] === given.grade;
      const primaryGiven = holdings.primary.name === given.job;
      if (!stillGiven && !primaryGiven) {
        const own = before.primary.name;
        // Someone removed the department's job (RemovePlayerFromJob), and Qbox made the primary job the bridge had
        // moved to it unemployed: the primary job the player had goes back, the removal stays.
        const removed = holdings.jobs[given.job] === undefined && holdings.primary.name === UNEMPLOYED;
        if (removed && own !== given.job && own !== UNEMPLOYED && holdings.jobs[own] !== undefined) {
          if (call('SetPlayerPrimaryJob', character, own) === true) call('SetJobDuty', src, before.primary.onDuty);
        }
        return leftAlone(`Qbox: player ${src}'s job ${given.job} was changed while on duty; it is left`);
      }
      if (primaryGiven && before.primary.name !== given.job) {
        const own = before.primary.name;
        const back = own === UNEMPLOYED || holdings.jobs[own] !== undefined ? own : UNEMPLOYED;
        if (call('SetPlayerPrimaryJob', character, back) !== true) call('SetPlayerPrimaryJob', character, UNEMPLOYED);
      }
      if (stillGiven) {
        const held = before.jobs[given.job];
        if (held === undefined) call('RemovePlayerFromJob', character, given.job);
        else if (held !== given.grade) call('AddPlayerToJob', character, given.job, held);
      }
      // Once, with the state the player's own primary job had: Qbox's SetJobDuty announces it to scripts.
      if (primaryGiven) call('SetJobDuty', src, before.primary.onDuty);
      return JOB_OK;
    },
    onCharacterLoaded(loaded) {
      resources.onLocal('QBCore:Server:PlayerLoaded', (player) => {
        const data = (player as QboxPlayer | null)?.PlayerData;
        if (typeof data?.citizenid === 'string') loaded(Number(data.source), data.citizenid);
      });
    },
  };
}

const OX_RESOURCE = 'ox_core';

/** A character's groups (name to grade) and their active group, ox_core's duty. */
export interface OxGroups {
  groups: Record<string, number>;
  activeGroup: string | null;
}

const OxGroupsSchema: z.ZodMiniType<OxGroups, unknown> = z.object({
  groups: z.record(z.string(), z.number().check(z.int())),
  activeGroup: z.nullable(z.string()),
});

/** The group as ox_core publishes it in GlobalState['group.<name>']: grades are labels, grade n the n-th. */
interface OxGroup {
  type?: unknown;
  grades?: unknown;
}

const NO_CHARACTER = 'ox_core: the player has no character loaded';

/**
 * ox_core has groups, not a job, and the active group as its duty: on duty the department's group is set at the
 * rank's grade with `CallPlayer(src, 'setGroup', name, grade)` (async: a database write) and made the active group
 * with `setActiveGroup(name, true)` (temporary: a server that dies leaves no one active); off duty the group is
 * removed only if the bridge added it (setGroup(name, 0) deletes the character_groups row), else its grade goes
 * back, and the active group the character had is set again. setGroup answers nothing for no change, an unknown
 * group or grade, and a group of a type the character already holds: the grade is read back, and GlobalState says
 * which it was.
 */
export function createOxCoreAdapter(resources: ResourcePort): FrameworkAdapter<OxGroups> {
  const callPlayer = (src: number, method: string, ...args: unknown[]) =>
    resources.callExport(OX_RESOURCE, 'CallPlayer', src, method, ...args);
  const group = (name: string) => resources.globalState(`group.${name}`) as OxGroup | null | undefined;

  /** Why setGroup left the grade as it was. */
  const whyNot = (groups: Record<string, number>, { job, grade }: JobAssignment): JobOutcome => {
    const wanted = group(job);
    if (!wanted) return refused(`ox_core has no group ${job}`, 'create it (ox_groups, or exports.ox_core:CreateGroup)');
    const grades = Array.isArray(wanted.grades) ? wanted.grades.length : 0;
    if (grade < 1 || grade > grades)
      return refused(`ox_core has no grade ${grade} in the group ${job}`, 'add it to ox_group_grades');
    const sameType = Object.keys(groups).find((held) => wanted.type && group(held)?.type === wanted.type);
    if (sameType) {
      return refused(
        `the character holds ${sameType}, of the same type '${String(wanted.type)}', and ox_core allows one group of a type`,
        `map the department to ${sameType} in Config.Integrations.DepartmentJobs, or give the group ${job} another type`,
      );
    }
    return refused(`ox_core did not set the group ${job} (grade ${grade})`, "see ox_core's warning in the console");
  };

  const charIdOf = (src: number): string | undefined => {
    const player = resources.callExport(OX_RESOURCE, 'GetPlayer', src) as { charId?: unknown } | null;
    return player?.charId === undefined || player.charId === null ? undefined : String(player.charId);
  };
  const stillLoaded = (src: number, character: string) => charIdOf(src) === character;

  const read = (src: number): PlayerRead<OxGroups> => {
    const character = charIdOf(src);
    if (character === undefined) return notLoaded(NO_CHARACTER);
    const groups = gradesByName(callPlayer(src, 'getGroups'));
    const active = callPlayer(src, 'get', 'activeGroup');
    return {
      ok: true,
      character,
      holdings: { groups, activeGroup: typeof active === 'string' ? active : null },
    };
  };

  return {
    id: 'ox_core',
    resource: OX_RESOURCE,
    label: 'ox_core',
    lowestGrade: 1,
    holds: 'group',
    noun: 'group',
    answersLater: true,
    holdingsSchema: OxGroupsSchema,
    read,
    async give(src, { holdings }, target) {
      if (holdings.groups[target.job] !== target.grade) {
        const result = await callPlayer(src, 'setGroup', target.job, target.grade);
        if (result === false) return notLoaded(NO_CHARACTER);
        // true: the row is written, even when ox_core unloaded the player while it waited (it is theirs to give back).
        if (result !== true && callPlayer(src, 'getGroup', target.job) !== target.grade) {
          return whyNot(holdings.groups, target);
        }
      }
      if (holdings.activeGroup !== target.job) callPlayer(src, 'setActiveGroup', target.job, true);
      return JOB_OK;
    },
    async giveBack(src, { character, holdings }, given, before) {
      const stillGiven = holdings.groups[given.job] === given.grade;
      let active = holdings.activeGroup;
      if (stillGiven) {
        const held = before.groups[given.job];
        if (held === undefined) {
          // Removing the group also ends it being the active one.
          if ((await callPlayer(src, 'setGroup', given.job, 0)) === true && active === given.job) active = null;
        } else if (held !== given.grade) {
          await callPlayer(src, 'setGroup', given.job, held);
        }
      }
      if ((active === given.job || active === null) && active !== before.activeGroup) {
        const restored =
          before.activeGroup === null
            ? callPlayer(src, 'setActiveGroup')
            : callPlayer(src, 'setActiveGroup', before.activeGroup);
        // ox_core unloaded them while the group was being removed: their active group (cleared in character_groups
        // when the department's was set) is given back when the character loads again.
        if (restored !== true && !stillLoaded(src, character)) return notLoaded(NO_CHARACTER);
      }
      return stillGiven
        ? JOB_OK
        : leftAlone(`ox_core: player ${src}'s group ${given.job} was changed while on duty; it is left`);
    },
    onCharacterLoaded(loaded) {
      resources.onLocal('ox:playerLoaded', (playerId, _userId, charId) => {
        if (charId !== undefined && charId !== null) loaded(Number(playerId), String(charId));
      });
    },
  };
}
