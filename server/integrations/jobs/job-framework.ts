import type { JobFramework } from '../../../shared/config/schema.js';

/** A job (ox_core: a group) and its grade, as the bridge hands it to a framework. */
export interface JobAssignment {
  job: string;
  grade: number;
}

/**
 * What a framework answered. A call that throws (a failing export, a dead reference after the framework restarted)
 * is not an outcome: the job integration catches it.
 */
export type JobOutcome =
  | { ok: true; note?: string }
  /** The framework has no such player: no character loaded yet, or already unloaded on a drop. */
  | { ok: false; kind: 'not_loaded'; detail: string }
  /** The framework turned the change down: an unknown job or grade, too many jobs. */
  | { ok: false; kind: 'refused'; detail: string };

export type FrameworkId = Exclude<JobFramework, 'auto'>;

/** One job framework, as the job integration drives it. Every call crosses msgpack into the framework's resource. */
export interface FrameworkAdapter {
  readonly id: FrameworkId;
  /** The resource the framework runs as (its exports are addressed by this name). */
  readonly resource: string;
  readonly label: string;
  /** Grade given to a rank the mapping does not list, and the least a grade may be (ox_core: grade 0 removes). */
  readonly lowestGrade: number;
  /** Whether off duty goes back to the fallback job (ox_core instead removes the department's group). */
  readonly usesFallback: boolean;
  /** On duty: the department's job; `previous` is what the bridge set before, when the player switches. */
  onDuty(src: number, assignment: JobAssignment, previous: JobAssignment | undefined): JobOutcome | Promise<JobOutcome>;
  /** Off duty: back from `previous` (what the bridge set on duty) to `fallback`. */
  offDuty(src: number, previous: JobAssignment, fallback: JobAssignment): JobOutcome | Promise<JobOutcome>;
}

export const JOB_OK: JobOutcome = Object.freeze({ ok: true });

export const notLoaded = (detail: string): JobOutcome => ({ ok: false, kind: 'not_loaded', detail });
export const refused = (detail: string): JobOutcome => ({ ok: false, kind: 'refused', detail });
