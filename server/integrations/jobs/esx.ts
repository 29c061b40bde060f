import { cachedFunction } from '../cached-function.js';
import type { ResourcePort } from '../integration.js';
import { type FrameworkAdapter, JOB_OK, type JobOutcome, notLoaded, refused } from './job-framework.js';

const RESOURCE = 'es_extended';

interface XPlayer {
  setJob(job: string, grade: number, onDuty: boolean): unknown;
  getJob(): unknown;
}

/** `xPlayer.getJob()` read back: ESX only prints a warning for a job or grade it does not know. */
function checkJob(current: unknown, job: string, grade: number): JobOutcome {
  if (current === null || typeof current !== 'object') return notLoaded('ESX has no player with this id');
  const { name, grade: currentGrade } = current as { name?: unknown; grade?: unknown };
  if (name === job && Number(currentGrade) === grade) return JOB_OK;
  return refused(
    `ESX kept the job ${String(name)} (grade ${String(currentGrade)}): is ${job} with grade ${grade} in its jobs and job_grades?`,
  );
}

/**
 * ESX (es_extended): `xPlayer.setJob(name, grade, onDuty)`. Through `RunStaticPlayerMethod` when ESX has it
 * (2025-01 and later; no copy of the player), else on the xPlayer from `getSharedObject().GetPlayerFromId(src)`.
 */
export function createEsxAdapter(resources: ResourcePort): FrameworkAdapter {
  const getPlayerFromId = cachedFunction<[number], XPlayer | null>(
    'ESX.GetPlayerFromId',
    () => (resources.callExport(RESOURCE, 'getSharedObject') as { GetPlayerFromId?: unknown } | null)?.GetPlayerFromId,
  );

  const setJob = (src: number, job: string, grade: number, onDuty: boolean): JobOutcome => {
    if (resources.hasExport(RESOURCE, 'RunStaticPlayerMethod')) {
      resources.callExport(RESOURCE, 'RunStaticPlayerMethod', src, 'setJob', job, grade, onDuty);
      return checkJob(resources.callExport(RESOURCE, 'RunStaticPlayerMethod', src, 'getJob'), job, grade);
    }
    const xPlayer = getPlayerFromId(src);
    if (!xPlayer) return notLoaded('ESX has no player with this id');
    xPlayer.setJob(job, grade, onDuty);
    return checkJob(xPlayer.getJob(), job, grade);
  };

  return {
    id: 'esx',
    resource: RESOURCE,
    label: 'ESX',
    lowestGrade: 0,
    usesFallback: true,
    onDuty: (src, { job, grade }) => setJob(src, job, grade, true),
    // ESX keeps a duty flag per job; off duty is off duty whatever the fallback job is (unemployed forces it anyway).
    offDuty: (src, _previous, fallback) => setJob(src, fallback.job, fallback.grade, false),
  };
}
