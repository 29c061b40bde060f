import type { ResourcePort } from '../integration.js';
import { type FrameworkAdapter, JOB_OK, type JobOutcome, notLoaded } from './job-framework.js';

const RESOURCE = 'ox_core';

/**
 * ox_core has groups, not a job: on duty the department's group is set with `CallPlayer(src, 'setGroup', name,
 * grade)` (async: a Promise), off duty it is removed with grade 0. Groups live beside each other, so there is no
 * fallback job to go back to.
 */
export function createOxCoreAdapter(resources: ResourcePort): FrameworkAdapter {
  const setGroup = async (src: number, group: string, grade: number): Promise<JobOutcome> => {
    const result = await resources.callExport(RESOURCE, 'CallPlayer', src, 'setGroup', group, grade);
    if (result === true) return JOB_OK;
    if (result === false) return notLoaded('ox_core: the player has no character loaded');
    // undefined: no change (they had that grade already), an unknown group or grade (ox_core warns), or no such player.
    return { ok: true, note: `ox_core did not confirm setGroup('${group}', ${grade})` };
  };

  return {
    id: 'ox_core',
    resource: RESOURCE,
    label: 'ox_core',
    lowestGrade: 1,
    usesFallback: false,
    async onDuty(src, { job, grade }, previous) {
      if (previous && previous.job !== job) await setGroup(src, previous.job, 0);
      return setGroup(src, job, grade);
    },
    offDuty: (src, previous) => setGroup(src, previous.job, 0),
  };
}
