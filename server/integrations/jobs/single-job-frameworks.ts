// The frameworks with one job per character, ESX and QBCore: the job the bridge keeps for a player, qb-core's duty
// events, and each framework's adapter.
import { concatMap, type Observable } from 'rxjs';
import * as z from '../../../shared/zod-mini.js';
import type { ResourcePort } from '../integration.js';
import {
  type Answer,
  answer$,
  cachedFunction,
  type FrameworkAdapter,
  JOB_OK,
  type JobAssignment,
  type JobFailure,
  type JobOutcome,
  leftAlone,
  notLoaded,
  type PlayerRead,
  refused,
} from './job-framework.js';

/**
 * The job of a player on a framework with one job per character (ESX, QBCore): its name, grade and duty flag (ESX
 * `job.onDuty` since 1.11.0, qb-core `job.onduty`). What the bridge remembers before the department's job and gives
 * back after it.
 */
export interface SingleJob {
  name: string;
  grade: number;
  onDuty: boolean;
}

/** Reads a remembered SingleJob back from KVP. */
export const SingleJobSchema: z.ZodMiniType<SingleJob, unknown> = z.object({
  name: z.string(),
  grade: z.number().check(z.int()),
  onDuty: z.boolean(),
});

/** What ESX and QBCore give a character whose saved job they no longer have; both always have it. */
export const FRAMEWORK_DEFAULT_JOB: JobAssignment = { job: 'unemployed', grade: 0 };

/**
 * The refusal when the job a player had before duty no longer exists: they got FallbackJob, or when that does not
 * exist either the framework's own default (`got`), or nothing took and they still have `got`.
 */
export function ownJobGone(
  framework: string,
  own: JobAssignment,
  fallback: JobAssignment,
  got: JobAssignment,
  fixFor: (job: JobAssignment) => string,
): JobFailure {
  const name = ({ job, grade }: JobAssignment) => `${job} (grade ${grade})`;
  const gone = `${framework} no longer has the job ${name(own)} the player had before duty`;
  if (got.job === fallback.job && got.grade === fallback.grade) {
    return refused(`${gone}; they got ${name(fallback)}`, `${fixFor(own)}, then give it back to them`);
  }
  const result =
    got.job === FRAMEWORK_DEFAULT_JOB.job && got.grade === FRAMEWORK_DEFAULT_JOB.grade
      ? `they got ${name(got)}`
      : `they still have ${name(got)}`;
  return refused(
    `${gone}, nor FallbackJob ${name(fallback)}; ${result}`,
    `${fixFor(own)} (and ${fixFor(fallback)}, or set Config.Integrations.FallbackJob to a job that exists), then give it back to them`,
  );
}

export const QBCORE_DUTY_EVENTS = {
  /** Server-local `(source, onDuty)`: what qb-core's own toggle (QBCore:ToggleDuty) fires, and scripts listen for. */
  server: 'QBCore:Server:SetDuty',
  /** To the player's client `(onDuty)`. */
  client: 'QBCore:Client:SetDuty',
} as const;

/**
 * Tells scripts that a player's duty changed the way qb-core's own toggle does: `SetJobDuty` alone fires only the
 * job update. Whoever said it last (qb-core's toggle, rcore_police in its QBCORE or QBOX duty mode, the bridge
 * itself) is remembered per player, so a state already announced is not announced twice.
 */
export class QbCoreDutyEvents {
  private readonly heard = new Map<number, boolean>();

  constructor(private readonly resources: ResourcePort) {
    resources.onLocal(QBCORE_DUTY_EVENTS.server, (src, onDuty) => {
      const id = Number(src);
      if (Number.isInteger(id) && typeof onDuty === 'boolean') this.heard.set(id, onDuty);
    });
  }

  announce(src: number, onDuty: boolean): void {
    if (this.heard.get(src) === onDuty) return;
    this.heard.set(src, onDuty);
    this.resources.emitLocal(QBCORE_DUTY_EVENTS.server, src, onDuty);
    this.resources.emitClient(QBCORE_DUTY_EVENTS.client, src, onDuty);
  }

  forget(src: number): void {
    this.heard.delete(src);
  }
}

const ESX_RESOURCE = 'es_extended';

interface XPlayer {
  identifier?: unknown;
  setJob(job: string, grade: number, onDuty: boolean): unknown;
  getJob(): unknown;
}

const ESX_NO_PLAYER = 'ESX has no player with this id';

const readJob = (job: unknown): SingleJob | undefined => {
  if (job === null || typeof job !== 'object') return undefined;
  const { name, grade, onDuty } = job as { name?: unknown; grade?: unknown; onDuty?: unknown };
  return { name: String(name), grade: Number(grade), onDuty: onDuty === true };
};

const isJob = (job: SingleJob | undefined, name: string, grade: number): boolean =>
  job !== undefined && job.name === name && job.grade === grade;

const esxFixFor = ({ job, grade }: JobAssignment) =>
  `create job ${job} grade ${grade} in your jobs and job_grades tables`;

/**
 * ESX (es_extended): `xPlayer.setJob(name, grade, onDuty)`, read back with `getJob` since ESX only prints a warning
 * for a job or grade it does not know. Through `RunStaticPlayerMethod` when ESX has it (1.13.0 and later: no copy
 * of the player), else on the xPlayer from `getSharedObject().GetPlayerFromId(src)`. setJob waits inside ESX while
 * it reloads its jobs (DoesJobExist), and then answers with a Promise: the read-back waits for it.
 */
export function createEsxAdapter(resources: ResourcePort): FrameworkAdapter<SingleJob> {
  const getPlayerFromId = cachedFunction<[number], XPlayer | null>(
    'ESX.GetPlayerFromId',
    () =>
      (resources.callExport(ESX_RESOURCE, 'getSharedObject') as { GetPlayerFromId?: unknown } | null)?.GetPlayerFromId,
  );
  const staticMethods = () => resources.hasExport(ESX_RESOURCE, 'RunStaticPlayerMethod');
  const call = (src: number, method: 'setJob' | 'getJob', ...args: unknown[]): unknown => {
    if (staticMethods()) return resources.callExport(ESX_RESOURCE, 'RunStaticPlayerMethod', src, method, ...args);
    const xPlayer = getPlayerFromId(src);
    if (!xPlayer) return undefined;
    return method === 'getJob' ? xPlayer.getJob() : xPlayer.setJob(...(args as [string, number, boolean]));
  };
  const currentJob = (src: number) => readJob(call(src, 'getJob'));
  /**
   * Players ESX is saving as they leave (esx:playerDropped, then Core.SavePlayer from memory; the player is forgotten
   * only when the UPDATE answered): a job given back after that is not saved, so it is kept for their next load.
   */
  const saving = new Set<number>();
  const setJob = (
    src: number,
    job: SingleJob,
    then: (after: SingleJob | undefined) => Answer<JobOutcome>,
  ): Observable<JobOutcome> =>
    answer$(call(src, 'setJob', job.name, job.grade, job.onDuty)).pipe(concatMap(() => answer$(then(currentJob(src)))));

  return {
    id: 'esx',
    resource: ESX_RESOURCE,
    label: 'ESX',
    lowestGrade: 0,
    holds: 'job',
    noun: 'job',
    answersLater: false,
    holdingsSchema: SingleJobSchema,
    read(src): PlayerRead<SingleJob> {
      const identifier = staticMethods()
        ? resources.callExport(ESX_RESOURCE, 'RunStaticPlayerMethod', src, 'getIdentifier')
        : getPlayerFromId(src)?.identifier;
      const job = currentJob(src);
      if (typeof identifier !== 'string' || !job) return notLoaded(ESX_NO_PLAYER);
      return { ok: true, character: identifier, holdings: job };
    },
    give(src, now, target) {
      if (isJob(now.holdings, target.job, target.grade) && now.holdings.onDuty) return JOB_OK;
      return setJob(src, { name: target.job, grade: target.grade, onDuty: true }, (after) => {
        if (!after) return notLoaded(ESX_NO_PLAYER);
        if (isJob(after, target.job, target.grade)) return JOB_OK;
        return refused(`ESX kept the job ${after.name} (grade ${after.grade})`, esxFixFor(target));
      });
    },
    giveBack(src, now, given, before, fallback) {
      const job = now.holdings;
      if (!isJob(job, given.job, given.grade)) {
        return leftAlone(`ESX: player ${src}'s job became ${job.name} (grade ${job.grade}) while on duty; it is left`);
      }
      const own = { job: before.name, grade: before.grade };
      /** FallbackJob, then ESX's own default: never the department's job left on them. */
      const instead = (jobs: JobAssignment[]): Observable<JobOutcome> => {
        const [next, ...rest] = jobs as [JobAssignment, ...JobAssignment[]];
        return setJob(src, { name: next.job, grade: next.grade, onDuty: false }, (after) => {
          if (!after) return notLoaded(ESX_NO_PLAYER);
          if (isJob(after, next.job, next.grade) || rest.length === 0) {
            return ownJobGone('ESX', own, fallback, { job: after.name, grade: after.grade }, esxFixFor);
          }
          return instead(rest);
        });
      };
      return setJob(src, before, (after) => {
        if (saving.has(src)) return notLoaded(`${ESX_NO_PLAYER} (ESX saved them as they left, before this answered)`);
        if (!after) return notLoaded(ESX_NO_PLAYER);
        if (isJob(after, before.name, before.grade)) return JOB_OK;
        return instead([fallback, FRAMEWORK_DEFAULT_JOB]);
      });
    },
    onCharacterLoaded(loaded) {
      resources.onLocal('esx:playerLoaded', (playerId, xPlayer) => {
        saving.delete(Number(playerId));
        const identifier = (xPlayer as { identifier?: unknown } | null)?.identifier;
        if (typeof identifier === 'string') loaded(Number(playerId), identifier);
      });
    },
    onCharacterUnloading(unloading) {
      // server/main.lua onPlayerDropped: a drop, esx:playerLogout (a character switch) and a stale player alike.
      resources.onLocal('esx:playerDropped', (playerId) => {
        const src = Number(playerId);
        unloading(src);
        saving.add(src);
      });
    },
    forget: (src) => saving.delete(src),
  };
}

const QBCORE_RESOURCE = 'qb-core';

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

const QBCORE_NO_PLAYER = 'qb-core has no player with this id';

const sameJob = (job: SingleJob, name: string, grade: number) => job.name === name && job.grade === grade;

const qbCoreFixFor = ({ job, grade }: JobAssignment) =>
  `add grade '${grade}' of the job ${job} to qb-core/shared/jobs.lua`;

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
      (
        resources.callExport(QBCORE_RESOURCE, 'GetCoreObject', ['Functions']) as {
          Functions?: { GetPlayer?: unknown };
        } | null
      )?.Functions?.GetPlayer,
  );
  const getPlayer = (src: number): QbPlayer | null =>
    resources.hasExport(QBCORE_RESOURCE, 'GetPlayer')
      ? (resources.callExport(QBCORE_RESOURCE, 'GetPlayer', src) as QbPlayer | null)
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
    resource: QBCORE_RESOURCE,
    label: 'QBCore',
    lowestGrade: 0,
    holds: 'job',
    noun: 'job',
    answersLater: false,
    holdingsSchema: SingleJobSchema,
    read: (src) => read(src) ?? notLoaded(QBCORE_NO_PLAYER),
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
        qbCoreFixFor,
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
