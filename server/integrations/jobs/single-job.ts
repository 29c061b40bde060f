import * as z from '../../../shared/zod-mini.js';

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
