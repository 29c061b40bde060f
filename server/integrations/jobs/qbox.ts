import type { ResourcePort } from '../integration.js';
import { type FrameworkAdapter, JOB_OK, type JobOutcome, notLoaded, refused } from './job-framework.js';

const RESOURCE = 'qbx_core';

/** `SetJob` returns `true`, `false` (it printed why), or `false, { code, message }`, which reaches JS as an array. */
export function readQboxResult(result: unknown): JobOutcome {
  if (result === true) return JOB_OK;
  if (Array.isArray(result) && result[0] === false) {
    const { code, message } = (result[1] ?? {}) as { code?: unknown; message?: unknown };
    return refused(`qbx_core: ${String(code ?? 'error')}: ${String(message ?? '')}`.trim());
  }
  if (result === false) return refused('qbx_core turned it down (an unknown job or grade; its console says which)');
  return refused(`qbx_core answered ${JSON.stringify(result) ?? String(result)}`);
}

/**
 * Qbox (qbx_core): `exports.qbx_core:SetJob(src, job, grade)` then `SetJobDuty(src, true)` on duty. SetJob throws
 * inside qbx_core for a player it does not have, so `GetPlayer(src)` is asked first.
 */
export function createQboxAdapter(resources: ResourcePort): FrameworkAdapter {
  const setJob = (src: number, job: string, grade: number, onDuty?: boolean): JobOutcome => {
    if (!resources.callExport(RESOURCE, 'GetPlayer', src)) return notLoaded('qbx_core has no player with this id');
    const outcome = readQboxResult(resources.callExport(RESOURCE, 'SetJob', src, job, grade));
    if (outcome.ok && onDuty !== undefined) resources.callExport(RESOURCE, 'SetJobDuty', src, onDuty);
    return outcome;
  };

  return {
    id: 'qbox',
    resource: RESOURCE,
    label: 'Qbox',
    lowestGrade: 0,
    usesFallback: true,
    onDuty: (src, { job, grade }) => setJob(src, job, grade, true),
    // As on QBCore, the fallback job keeps its own defaultDuty.
    offDuty: (src, _previous, fallback) => setJob(src, fallback.job, fallback.grade),
  };
}
