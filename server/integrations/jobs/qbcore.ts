import { cachedFunction } from '../cached-function.js';
import type { ResourcePort } from '../integration.js';
import { type FrameworkAdapter, JOB_OK, type JobOutcome, notLoaded, refused } from './job-framework.js';

const RESOURCE = 'qb-core';

interface QbPlayer {
  Functions?: {
    SetJob(job: string, grade: number): unknown;
    SetJobDuty(onDuty: boolean): unknown;
  };
}

/**
 * QBCore (qb-core): `Player.Functions.SetJob(job, grade)` then `SetJobDuty(true)` on duty (SetJob resets duty to the
 * job's `defaultDuty`). The player comes from the `GetPlayer` export (2026 and later) or from
 * `GetCoreObject({ 'Functions' }).Functions.GetPlayer(src)`.
 */
export function createQbCoreAdapter(resources: ResourcePort): FrameworkAdapter {
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

  const setJob = (src: number, job: string, grade: number, onDuty?: boolean): JobOutcome => {
    const functions = getPlayer(src)?.Functions;
    if (!functions) return notLoaded('qb-core has no player with this id');
    if (functions.SetJob(job, grade) === false) return refused(`qb-core has no job ${job} (QBShared.Jobs)`);
    if (onDuty !== undefined) functions.SetJobDuty(onDuty);
    return JOB_OK;
  };

  return {
    id: 'qbcore',
    resource: RESOURCE,
    label: 'QBCore',
    lowestGrade: 0,
    usesFallback: true,
    onDuty: (src, { job, grade }) => setJob(src, job, grade, true),
    // The fallback job keeps its own defaultDuty: setting it off would stop the civilian pay of `unemployed`.
    offDuty: (src, _previous, fallback) => setJob(src, fallback.job, fallback.grade),
  };
}
