import { concatMap, type Observable } from 'rxjs';
import type { ResourcePort } from '../integration.js';
import {
  type Answer,
  answer$,
  cachedFunction,
  type FrameworkAdapter,
  JOB_OK,
  type JobAssignment,
  type JobOutcome,
  leftAlone,
  notLoaded,
  type PlayerRead,
  refused,
} from './job-framework.js';
import { FRAMEWORK_DEFAULT_JOB, ownJobGone, type SingleJob, SingleJobSchema } from './single-job.js';

const RESOURCE = 'es_extended';

interface XPlayer {
  identifier?: unknown;
  setJob(job: string, grade: number, onDuty: boolean): unknown;
  getJob(): unknown;
}

const NO_PLAYER = 'ESX has no player with this id';

const readJob = (job: unknown): SingleJob | undefined => {
  if (job === null || typeof job !== 'object') return undefined;
  const { name, grade, onDuty } = job as { name?: unknown; grade?: unknown; onDuty?: unknown };
  return { name: String(name), grade: Number(grade), onDuty: onDuty === true };
};

const isJob = (job: SingleJob | undefined, name: string, grade: number): boolean =>
  job !== undefined && job.name === name && job.grade === grade;

const fixFor = ({ job, grade }: JobAssignment) => `create job ${job} grade ${grade} in your jobs and job_grades tables`;

/**
 * ESX (es_extended): `xPlayer.setJob(name, grade, onDuty)`, read back with `getJob` since ESX only prints a warning
 * for a job or grade it does not know. Through `RunStaticPlayerMethod` when ESX has it (1.13.0 and later: no copy
 * of the player), else on the xPlayer from `getSharedObject().GetPlayerFromId(src)`. setJob waits inside ESX while
 * it reloads its jobs (DoesJobExist), and then answers with a Promise: the read-back waits for it.
 */
export function createEsxAdapter(resources: ResourcePort): FrameworkAdapter<SingleJob> {
  const getPlayerFromId = cachedFunction<[number], XPlayer | null>(
    'ESX.GetPlayerFromId',
    () => (resources.callExport(RESOURCE, 'getSharedObject') as { GetPlayerFromId?: unknown } | null)?.GetPlayerFromId,
  );
  const staticMethods = () => resources.hasExport(RESOURCE, 'RunStaticPlayerMethod');
  const call = (src: number, method: 'setJob' | 'getJob', ...args: unknown[]): unknown => {
    if (staticMethods()) return resources.callExport(RESOURCE, 'RunStaticPlayerMethod', src, method, ...args);
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
    resource: RESOURCE,
    label: 'ESX',
    lowestGrade: 0,
    holds: 'job',
    noun: 'job',
    answersLater: false,
    holdingsSchema: SingleJobSchema,
    read(src): PlayerRead<SingleJob> {
      const identifier = staticMethods()
        ? resources.callExport(RESOURCE, 'RunStaticPlayerMethod', src, 'getIdentifier')
        : getPlayerFromId(src)?.identifier;
      const job = currentJob(src);
      if (typeof identifier !== 'string' || !job) return notLoaded(NO_PLAYER);
      return { ok: true, character: identifier, holdings: job };
    },
    give(src, now, target) {
      if (isJob(now.holdings, target.job, target.grade) && now.holdings.onDuty) return JOB_OK;
      return setJob(src, { name: target.job, grade: target.grade, onDuty: true }, (after) => {
        if (!after) return notLoaded(NO_PLAYER);
        if (isJob(after, target.job, target.grade)) return JOB_OK;
        return refused(`ESX kept the job ${after.name} (grade ${after.grade})`, fixFor(target));
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
          if (!after) return notLoaded(NO_PLAYER);
          if (isJob(after, next.job, next.grade) || rest.length === 0) {
            return ownJobGone('ESX', own, fallback, { job: after.name, grade: after.grade }, fixFor);
          }
          return instead(rest);
        });
      };
      return setJob(src, before, (after) => {
        if (saving.has(src)) return notLoaded(`${NO_PLAYER} (ESX saved them as they left, before this answered)`);
        if (!after) return notLoaded(NO_PLAYER);
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
