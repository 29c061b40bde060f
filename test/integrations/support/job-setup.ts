import type { Integration } from '../../../server/integrations/integration.js';
import { createJobIntegration } from '../../../server/integrations/jobs/job-integration.js';
import type { DepartmentJobs } from '../../../shared/config/department-jobs.js';
import type { JobFramework } from '../../../shared/config/schema.js';
import { FakeResources, recordingLogger } from './fake-resources.js';

export interface JobSetup {
  resources: FakeResources;
  jobs: Integration;
  lines: string[];
  warnings: () => string[];
}

/** A job integration on fake resources, with the shipped fallback (unemployed, grade 0) unless told otherwise. */
export function jobSetup(
  framework: JobFramework,
  options: { departmentJobs?: DepartmentJobs; fallbackJob?: string; fallbackGrade?: number } = {},
): JobSetup {
  const resources = new FakeResources();
  const { logger, lines, at } = recordingLogger();
  const jobs = createJobIntegration({
    framework,
    fallbackJob: options.fallbackJob ?? 'unemployed',
    fallbackGrade: options.fallbackGrade ?? 0,
    departmentJobs: options.departmentJobs ?? {},
    resources,
    logger,
  });
  return { resources, jobs, lines, warnings: () => at('WARN') };
}
