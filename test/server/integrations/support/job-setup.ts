import type { Integration } from '../../../../server/integrations/integration.js';
import { createJobIntegration } from '../../../../server/integrations/jobs/job-integration.js';
import { createMemoryStore } from '../../../../server/kernel/storage.js';
import type { JobFramework } from '../../../../shared/config/schema.js';
import { FakeResources, recordingLogger } from './fake-resources.js';

export interface JobSetup {
  resources: FakeResources;
  jobs: Integration;
  lines: string[];
  warnings: () => string[];
}

/** A job integration on fake resources (for exports that fail; the frameworks themselves are the stub resources). */
export function jobSetup(framework: JobFramework): JobSetup {
  const resources = new FakeResources();
  const { logger, lines, at } = recordingLogger();
  const jobs = createJobIntegration({
    framework,
    fallbackJob: 'unemployed',
    fallbackGrade: 0,
    departmentJobs: {},
    resources,
    logger,
    store: createMemoryStore(),
    wallNow: () => 0,
    connectedPlayers: () => [],
  });
  return { resources, jobs, lines, warnings: () => at('WARN') };
}
