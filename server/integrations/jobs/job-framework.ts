// A job framework as the job integration drives it: the adapters' contract, and what they and the integration share
// (a framework function kept, the job a department gives, what a failure tells the owner).
import { from, isObservable, type Observable, of } from 'rxjs';
import type { DepartmentJobs } from '../../../shared/config/department-jobs.js';
import type { JobFramework } from '../../../shared/config/schema.js';
import type * as z from '../../../shared/zod-mini.js';
import type { Logger } from '../../kernel/index.js';

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
  /** The framework turned the change down (an unknown job or grade, too many jobs); `fix` tells the owner how. */
  | { ok: false; kind: 'refused'; detail: string; fix: string };

export type JobFailure = Extract<JobOutcome, { ok: false }>;

/** The character a framework has loaded for a player, and what they hold now that a department's job touches. */
export type PlayerRead<Holdings> = { ok: true; character: string; holdings: Holdings } | JobFailure;

export type FrameworkId = Exclude<JobFramework, 'auto'>;

/**
 * One job framework, as the job integration drives it. Every call crosses msgpack into the framework's resource;
 * every one that can answer at once does (a resource stop gives no later tick), and one that waits in the
 * framework (ox_core's database, ESX reloading its jobs) answers with a Promise.
 */
export interface FrameworkAdapter<Holdings = unknown> {
  readonly id: FrameworkId;
  /** The resource the framework runs as (its exports are addressed by this name). */
  readonly resource: string;
  readonly label: string;
  /** Grade given to a rank the mapping does not list, and the least a grade may be (ox_core: grade 0 removes). */
  readonly lowestGrade: number;
  /** 'job': one job per character, giving one replaces the other (ESX, QBCore); 'group': held beside the others. */
  readonly holds: 'job' | 'group';
  /** What the framework calls what the bridge gives, for the console: a job, or ox_core's group. */
  readonly noun: 'job' | 'group';
  /**
   * Whether its changes answer later (ox_core writes its database first): a bridge that is stopping would be gone
   * before the answer, so it leaves them to its next start, or to the framework loading the character again.
   */
  readonly answersLater: boolean;
  /** What `read` returns, checked again when it comes back from KVP after a crash. */
  readonly holdingsSchema: z.ZodMiniType<Holdings, unknown>;
  read(src: number): PlayerRead<Holdings>;
  /**
   * Gives the department's job (ox_core: group) at `target`'s grade, with the framework's own duty where it has one.
   * A failure leaves the player as `now` was.
   */
  give(src: number, now: PlayerRead<Holdings> & { ok: true }, target: JobAssignment): Answer<JobOutcome>;
  /**
   * Takes back what the bridge gave (`given`) and gives back what the player had (`before`), leaving alone whatever
   * was changed since by someone else. `fallback`: the job when the player's own cannot be given back.
   */
  giveBack(
    src: number,
    now: PlayerRead<Holdings> & { ok: true },
    given: JobAssignment,
    before: Holdings,
    fallback: JobAssignment,
  ): Answer<JobOutcome>;
  /** Calls `loaded` whenever the framework has loaded a character for a player (its own event). */
  onCharacterLoaded(loaded: (src: number, character: string) => void): void;
  /**
   * Calls `unloading` when the framework is about to save a player it unloads (a drop, a character switch) from
   * what they hold in memory, and to forget them only later (ESX): their own job must be back before that save.
   */
  onCharacterUnloading?(unloading: (src: number) => void): void;
  /** Every integration heard of a duty change (QBCore announces duty then, unless somebody else did). */
  dutySettled?(src: number, onDuty: boolean): void;
  forget?(src: number): void;
}

export const JOB_OK: JobOutcome = Object.freeze({ ok: true });

export const notLoaded = (detail: string): JobFailure => ({ ok: false, kind: 'not_loaded', detail });
export const refused = (detail: string, fix: string): JobFailure => ({ ok: false, kind: 'refused', detail, fix });
export const leftAlone = (note: string): JobOutcome => ({ ok: true, note });

/**
 * A framework's answer: now (a value), or later (a Promise, as an export that waits answers, or an Observable).
 * `answer$` makes every kind one Observable, synchronous for a value, so what can answer now does (a resource stop
 * gives no later tick) and a chain of calls is written once with RxJS operators.
 */
export type Answer<T> = T | PromiseLike<T> | Observable<T>;

export function answer$<T>(answer: Answer<T>): Observable<T> {
  return isObservable(answer) || isThenable(answer) ? from(answer as PromiseLike<T> | Observable<T>) : of(answer as T);
}

/** A Promise from any realm: an export that waited in Lua hands the caller the runtime's own Promise. */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** A Lua table of name to grade as it crosses msgpack (an empty table arrives as []), with every grade a number. */
export function gradesByName(table: unknown): Record<string, number> {
  const grades: Record<string, number> = {};
  if (table === null || typeof table !== 'object' || Array.isArray(table)) return grades;
  for (const [name, grade] of Object.entries(table)) grades[name] = Number(grade);
  return grades;
}

/**
 * A function taken from a framework object once and kept: fetching the object copies it through msgpack, the
 * whole framework included. When a call fails (the framework restarted and the reference died) it is fetched again
 * and the call retried once.
 */
export function cachedFunction<Args extends unknown[], Result>(
  what: string,
  fetch: () => unknown,
): (...args: Args) => Result {
  let cached: ((...args: Args) => Result) | undefined;
  const refetch = (): ((...args: Args) => Result) => {
    const fn = fetch();
    if (typeof fn !== 'function') throw new Error(`${what} is not a function`);
    cached = fn as (...args: Args) => Result;
    return cached;
  };
  return (...args) => {
    if (cached) {
      try {
        return cached(...args);
      } catch {
        cached = undefined;
      }
    }
    return refetch()(...args);
  };
}

/**
 * The job a department gives while on duty: the mapped job, else the department's slug; the grade mapped for the
 * rank, else the framework's lowest. The panel names only the player's own rank (an id across all departments,
 * not a position), so a grade cannot be derived from it without the mapping.
 */
export function assignJob(
  departmentSlug: string,
  rankId: number | null,
  departmentJobs: DepartmentJobs,
  lowestGrade: number,
): JobAssignment {
  const entry = Object.hasOwn(departmentJobs, departmentSlug) ? departmentJobs[departmentSlug] : undefined;
  const mapped = rankId === null || !entry ? undefined : entry.Grades[String(rankId)];
  return { job: entry?.Job ?? departmentSlug, grade: Math.max(mapped ?? lowestGrade, lowestGrade) };
}

export type ReportedFailure = JobFailure | { ok: false; kind: 'call_failed'; detail: string };

/**
 * What the job integration tells the owner about a framework that did not do what it was asked: each refusal once
 * with its fix (a different job or grade is a different fix), each other kind of failure once per framework, and
 * everything after that at debug level. Duty never depends on any of it.
 */
export class JobReports {
  constructor(private readonly logger: Logger) {}

  failed(adapter: FrameworkAdapter, what: string, failure: ReportedFailure, quiet = false): void {
    const line =
      failure.kind === 'refused'
        ? `${adapter.label} refused to ${what}: ${failure.detail}. Fix: ${failure.fix}`
        : `${adapter.label} could not ${what}: ${failure.detail}`;
    const kind = failure.kind === 'refused' ? `refused:${failure.fix}` : failure.kind;
    const warned =
      !quiet &&
      this.logger.once(
        `job-report:${adapter.id}:${kind}`,
        'warn',
        `${line} (duty is not affected; further failures like this are logged at debug level)`,
      );
    if (!warned) this.logger.debug(line);
  }
}
