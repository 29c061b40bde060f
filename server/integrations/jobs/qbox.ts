import * as z from '../../../shared/zod-mini.js';
import type { ResourcePort } from '../integration.js';
import {
  type FrameworkAdapter,
  gradesByName,
  JOB_OK,
  type JobFailure,
  leftAlone,
  notLoaded,
  type PlayerRead,
  refused,
} from './job-framework.js';

const RESOURCE = 'qbx_core';

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
  const call = (name: string, ...args: unknown[]) => resources.callExport(RESOURCE, name, ...args);

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
    resource: RESOURCE,
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
