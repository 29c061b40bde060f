import type { ResourcePort } from '../integration.js';
import {
  cachedFunction,
  type FrameworkAdapter,
  JOB_OK,
  type JobAssignment,
  leftAlone,
  notLoaded,
  type PlayerRead,
  refused,
} from './job-framework.js';
import { QbCoreDutyEvents } from './qbcore-duty-events.js';
import { FRAMEWORK_DEFAULT_JOB, ownJobGone, type SingleJob, SingleJobSchema } from './single-job.js';

const RESOURCE = 'qb-core';

interface QbPlayer {
  PlayerData?: {
    citizenid?: unknown;
    job?: { name?: unknown; onduty?: unknown; grade?: { name?: unknown; level?: unknown } };
  };
  Functions?: {
    SetJob(job: string, grade: number): unknown;
    SetJobDuty(onDuty: boolean): unknown;
  };
}

/** The grade qb-core gives when the job has not the one asked for: SetJob accepts it without a word. */
const NO_GRADES = 'No Grades';

const NO_PLAYER = 'qb-core has no player with this id';

const sameJob = (job: SingleJob, name: string, grade: number) => job.name === name && job.grade === grade;

const fixFor = ({ job, grade }: JobAssignment) => `add grade '${grade}' of the job ${job} to qb-core/shared/jobs.lua`;

/**
 * QBCore (qb-core): `Player.Functions.SetJob(job, grade)` (it resets duty to the job's `defaultDuty`), then
 * `SetJobDuty(true)`; the job is read back, since a grade the job lacks becomes 'No Grades' level 0 and SetJob still
 * answers true. SetJobDuty fires only the job update, so the bridge fires QBCore:Server:SetDuty and
 * QBCore:Client:SetDuty as qb-core's own toggle does. The player comes from the `GetPlayer` export (2026 and later)
 * or from `GetCoreObject({ 'Functions' }).Functions.GetPlayer(src)`.
 */
export function createQbCoreAdapter(resources: ResourcePort): FrameworkAdapter<SingleJob> {
  const getPlayerFromCore = cachedFunction<[number], QbPlayer | null>(
    'QBCore.Functions.GetPlayer',
    () =>
      (resources.callExport(RESOURCE, 'GetCoreObject', ['Functions']) as { Functions?: { GetPlayer?: unknown } } | null)
        ?.Functions?.GetPlayer,
  );
  const getPlayer = (src: number): QbPlayer | null =>
    resources.hasExport(RESOURCE, 'GetPlayer')
      ? (resources.callExport(RESOURCE, 'GetPlayer', src) as QbPlayer | null)
      : getPlayerFromCore(src);
  const dutyEvents = new QbCoreDutyEvents(resources);

  const read = (src: number): (PlayerRead<SingleJob> & { ok: true; noGrades: boolean }) | undefined => {
    const data = getPlayer(src)?.PlayerData;
    const job = data?.job;
    if (!job || typeof data?.citizenid !== 'string') return undefined;
    return {
      ok: true,
      character: data.citizenid,
      holdings: { name: String(job.name), grade: Number(job.grade?.level), onDuty: job.onduty === true },
      noGrades: job.grade?.name === NO_GRADES,
    };
  };
  /** SetJob, then whether it gave that job and grade: undefined when qb-core has no such job (or player). */
  const setJob = (src: number, job: string, grade: number) => {
    const functions = getPlayer(src)?.Functions;
    if (!functions || functions.SetJob(job, grade) === false) return undefined;
    const now = read(src);
    return { functions, took: now !== undefined && !now.noGrades && sameJob(now.holdings, job, grade) };
  };

  return {
    id: 'qbcore',
    resource: RESOURCE,
    label: 'QBCore',
    lowestGrade: 0,
    holds: 'job',
    noun: 'job',
    answersLater: false,
    holdingsSchema: SingleJobSchema,
    read: (src) => read(src) ?? notLoaded(NO_PLAYER),
    give(src, { holdings: job }, target) {
      if (sameJob(job, target.job, target.grade)) {
        if (!job.onDuty) getPlayer(src)?.Functions?.SetJobDuty(true);
        return JOB_OK;
      }
      const set = setJob(src, target.job, target.grade);
      if (!set)
        return refused(`qb-core has no job ${target.job}`, `add the job ${target.job} to qb-core/shared/jobs.lua`);
      if (!set.took) {
        set.functions.SetJob(job.name, job.grade);
        set.functions.SetJobDuty(job.onDuty);
        return refused(
          `qb-core has no grade ${target.grade} in the job ${target.job} (it gave '${NO_GRADES}', level 0)`,
          `add grade '${target.grade}' to the job ${target.job} in qb-core/shared/jobs.lua`,
        );
      }
      set.functions.SetJobDuty(true);
      return JOB_OK;
    },
    giveBack(src, { holdings: job }, given, before, fallback) {
      if (!sameJob(job, given.job, given.grade)) {
        return leftAlone(`QBCore: player ${src}'s job became ${job.name} while on duty; it is left`);
      }
      // Scripts hear the department's duty end while the job is still the department's.
      dutyEvents.announce(src, false);
      const set = setJob(src, before.name, before.grade);
      if (set?.took) {
        set.functions.SetJobDuty(before.onDuty);
        return JOB_OK;
      }
      const own = { job: before.name, grade: before.grade };
      // FallbackJob, then qb-core's own default: never the department's job left on them.
      const got = [fallback, FRAMEWORK_DEFAULT_JOB].find((next) => setJob(src, next.job, next.grade)?.took);
      const still = read(src)?.holdings;
      return ownJobGone(
        'qb-core',
        own,
        fallback,
        got ?? { job: String(still?.name), grade: Number(still?.grade) },
        fixFor,
      );
    },
    onCharacterLoaded(loaded) {
      resources.onLocal('QBCore:Server:PlayerLoaded', (player) => {
        const data = (player as (QbPlayer & { PlayerData?: { source?: unknown } }) | null)?.PlayerData;
        if (typeof data?.citizenid === 'string') loaded(Number(data.source), data.citizenid);
      });
    },
    dutySettled(src, onDuty) {
      if (onDuty) dutyEvents.announce(src, true);
    },
    forget: (src) => dutyEvents.forget(src),
  };
}
