import * as z from '../../../shared/zod-mini.js';
import { type JobAssignment, type JobFailure, refused } from './job-framework.js';

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
