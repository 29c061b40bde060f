import * as z from '../zod-mini.js';

/** The job (or ox_core group) one department gives while on duty, and the grade of each of its ranks. */
export interface DepartmentJob {
  /** Job name; absent means the department's slug. */
  Job?: string;
  /** Grade by the panel's rank id (as a string key, the way msgpack and Lua tables carry it). */
  Grades: Readonly<Record<string, number>>;
}

export type DepartmentJobs = Readonly<Record<string, DepartmentJob>>;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const isTable = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isGrade = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/**
 * `Grades = { [1] = 0, [2] = 1 }` is a Lua sequence, which msgpack turns into the array [0, 1]; with gaps
 * (`{ [2] = 1, [5] = 3 }`) it arrives as an object with string keys. Both mean "rank id → grade".
 */
function parseGrades(raw: unknown, at: string): Parsed<Record<string, number>> {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  const entries: Array<[string, unknown]> = Array.isArray(raw)
    ? raw.map((grade, index) => [String(index + 1), grade])
    : isTable(raw)
      ? Object.entries(raw)
      : [];
  if (!Array.isArray(raw) && !isTable(raw)) {
    return { ok: false, message: `${at} must be a table of rank id = grade, e.g. { [1] = 0, [2] = 1 }` };
  }
  const grades: Record<string, number> = {};
  for (const [rankId, grade] of entries) {
    if (!/^[1-9][0-9]*$/.test(rankId)) {
      return { ok: false, message: `${at} has the key ${rankId}, which is not a rank id (a whole number from 1)` };
    }
    if (!isGrade(grade)) {
      return { ok: false, message: `${at}[${rankId}] must be a whole number from 0` };
    }
    grades[rankId] = grade;
  }
  return { ok: true, value: grades };
}

function parseEntry(slug: string, raw: unknown): Parsed<DepartmentJob> {
  // An empty Lua table crosses msgpack as [].
  const table = Array.isArray(raw) && raw.length === 0 ? {} : raw;
  if (!isTable(table)) return { ok: false, message: `${slug} must be a table like { Job = 'police' }` };
  for (const key of Object.keys(table)) {
    if (key !== 'Job' && key !== 'Grades') {
      return { ok: false, message: `${slug}.${key} is not a known option (Job, Grades)` };
    }
  }
  const job = table.Job;
  if (job !== undefined && job !== null && (typeof job !== 'string' || job.trim() === '')) {
    return { ok: false, message: `${slug}.Job must be a job name` };
  }
  const grades = parseGrades(table.Grades, `${slug}.Grades`);
  if (!grades.ok) return grades;
  return { ok: true, value: typeof job === 'string' ? { Job: job, Grades: grades.value } : { Grades: grades.value } };
}

/** Parses `Config.Integrations.DepartmentJobs`; the first bad entry is named with its slug. */
export function parseDepartmentJobs(raw: unknown): Parsed<DepartmentJobs> {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (Array.isArray(raw) && raw.length === 0) return { ok: true, value: {} };
  if (!isTable(raw)) {
    return { ok: false, message: "must be a table keyed by department slug, e.g. { lspd = { Job = 'police' } }" };
  }
  const result: Record<string, DepartmentJob> = {};
  for (const [slug, entry] of Object.entries(raw)) {
    const parsed = parseEntry(slug, entry);
    if (!parsed.ok) return parsed;
    result[slug] = parsed.value;
  }
  return { ok: true, value: result };
}

/** The config leaf: an absent or empty table is no mapping; a bad entry fails the leaf with a message naming it. */
export const departmentJobsSchema = z.pipe(
  z.unknown(),
  z.transform((raw, ctx): DepartmentJobs => {
    const parsed = parseDepartmentJobs(raw);
    if (parsed.ok) return parsed.value;
    ctx.issues.push({ code: 'custom', message: parsed.message, input: raw });
    return z.NEVER;
  }),
);
