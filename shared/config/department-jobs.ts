import * as z from '../zod-mini.js';
import { likelyMeant } from './likely-meant.js';

/** The job (or ox_core group) one department gives while on duty, and the grade of each of its ranks. */
export interface DepartmentJob {
  /** Job name; absent means the department's slug. */
  Job?: string;
  /** Grade by the panel's rank id (as a string key, the way msgpack and Lua tables carry it). */
  Grades: Readonly<Record<string, number>>;
}

export type DepartmentJobs = Readonly<Record<string, DepartmentJob>>;

/**
 * One refused part of the mapping, under `Config.Integrations.DepartmentJobs`: `at` continues that key (`.lspd.Job`,
 * `.lspd.Grades[2]`, or nothing for the whole mapping), `using` says what the bridge does instead.
 */
export type DepartmentJobsProblem =
  | { kind: 'invalid'; at: string; value: unknown; reason: string; using: string }
  | { kind: 'unknown'; at: string; reason: string };

export interface ParsedDepartmentJobs {
  /** The mapping without the refused parts. */
  value: DepartmentJobs;
  problems: DepartmentJobsProblem[];
}

const ENTRY_KEYS = ['Job', 'Grades'];
const ENTRY_EXAMPLE = "a table like { Job = 'police', Grades = { [1] = 0 } }";
const LOWEST_GRADE = "the framework's lowest grade";

const isTable = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isGrade = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/**
 * `Grades = { [1] = 0, [2] = 1 }` is a Lua sequence, which msgpack turns into the array [0, 1]; with gaps
 * (`{ [2] = 1, [5] = 3 }`) it arrives as an object with string keys. Both mean "rank id → grade". A wrong entry is
 * left out alone: that rank gets the lowest grade, the others keep theirs.
 */
function parseGrades(raw: unknown, slug: string, problems: DepartmentJobsProblem[]): Record<string, number> {
  const at = `.${slug}.Grades`;
  if (raw === undefined || raw === null) return {};
  if (!Array.isArray(raw) && !isTable(raw)) {
    problems.push({
      kind: 'invalid',
      at,
      value: raw,
      reason: 'must be a table of rank id = grade, e.g. { [1] = 0, [2] = 1 }',
      using: `every rank of ${slug} gets ${LOWEST_GRADE}`,
    });
    return {};
  }
  const entries: Array<[string, unknown]> = Array.isArray(raw)
    ? raw.map((grade, index) => [String(index + 1), grade])
    : Object.entries(raw);
  const grades: Record<string, number> = {};
  for (const [rankId, grade] of entries) {
    if (!/^[1-9][0-9]*$/.test(rankId)) {
      problems.push({
        kind: 'invalid',
        at: `${at}['${rankId}']`,
        value: grade,
        reason: 'the key must be a rank id, a whole number from 1',
        using: 'the entry is ignored',
      });
    } else if (!isGrade(grade)) {
      problems.push({
        kind: 'invalid',
        at: `${at}[${rankId}]`,
        value: grade,
        reason: 'must be a grade, a whole number from 0',
        using: `rank ${rankId} gets ${LOWEST_GRADE}`,
      });
    } else {
      grades[rankId] = grade;
    }
  }
  return grades;
}

function parseEntry(slug: string, raw: unknown, problems: DepartmentJobsProblem[]): DepartmentJob | undefined {
  // An empty Lua table crosses msgpack as [].
  const table = Array.isArray(raw) && raw.length === 0 ? {} : raw;
  if (!isTable(table)) {
    // `lspd = 'police'` is the job name written without its table.
    const meant = typeof raw === 'string' && raw.trim() !== '' ? `; did you mean { Job = '${raw}' }?` : '';
    problems.push({
      kind: 'invalid',
      at: `.${slug}`,
      value: raw,
      reason: `must be ${ENTRY_EXAMPLE}${meant}`,
      using: `${slug} gets its slug as the job`,
    });
    return undefined;
  }
  for (const key of Object.keys(table)) {
    if (ENTRY_KEYS.includes(key)) continue;
    const meant = likelyMeant(key, ENTRY_KEYS);
    problems.push({
      kind: 'unknown',
      at: `.${slug}.${key}`,
      reason: `a department has Job and Grades${meant ? `; did you mean ${meant}?` : ''}`,
    });
  }
  let job = table.Job;
  if (job !== undefined && job !== null && (typeof job !== 'string' || job.trim() === '')) {
    problems.push({
      kind: 'invalid',
      at: `.${slug}.Job`,
      value: job,
      reason: 'must be a job name',
      using: `using the slug '${slug}'`,
    });
    job = undefined;
  }
  const grades = parseGrades(table.Grades, slug, problems);
  return typeof job === 'string' ? { Job: job, Grades: grades } : { Grades: grades };
}

/** Parses `Config.Integrations.DepartmentJobs`, leaving out only the parts that are wrong, each named. */
export function parseDepartmentJobs(raw: unknown): ParsedDepartmentJobs {
  if (raw === undefined || raw === null) return { value: {}, problems: [] };
  if (Array.isArray(raw) && raw.length === 0) return { value: {}, problems: [] };
  if (!isTable(raw)) {
    const problem: DepartmentJobsProblem = {
      kind: 'invalid',
      at: '',
      value: raw,
      reason: "must be a table keyed by department slug, e.g. { lspd = { Job = 'police' } }",
      using: 'using none: every department gets its slug as the job',
    };
    return { value: {}, problems: [problem] };
  }
  const problems: DepartmentJobsProblem[] = [];
  const value: Record<string, DepartmentJob> = {};
  for (const [slug, entry] of Object.entries(raw)) {
    const parsed = parseEntry(slug, entry, problems);
    if (parsed) value[slug] = parsed;
  }
  return { value, problems };
}

/** The config leaf: never refused as a whole; validate.ts reports the parts parseDepartmentJobs left out. */
export const departmentJobsSchema = z.pipe(
  z.unknown(),
  z.transform((raw): DepartmentJobs => parseDepartmentJobs(raw).value),
);
