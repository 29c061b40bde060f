import type { DepartmentJobs } from '../../../shared/config/department-jobs.js';
import type { JobAssignment } from './job-framework.js';

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
