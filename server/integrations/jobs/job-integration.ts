import type { DepartmentJobs } from '../../../shared/config/department-jobs.js';
import type { JobFramework } from '../../../shared/config/schema.js';
import type { Logger } from '../../log/logger.js';
import { errorText } from '../cached-function.js';
import type { DutyChange, Integration, ResourcePort } from '../integration.js';
import { AUTO_ORDER, createFrameworkAdapters } from './frameworks.js';
import { assignJob } from './job-assignment.js';
import type { FrameworkAdapter, JobAssignment, JobOutcome } from './job-framework.js';
import { PlayerQueue } from './player-queue.js';

export interface JobIntegrationOptions {
  framework: JobFramework;
  fallbackJob: string;
  fallbackGrade: number;
  departmentJobs: DepartmentJobs;
  resources: ResourcePort;
  logger: Logger;
}

type Failure = Extract<JobOutcome, { ok: false }>['kind'] | 'call_failed';

const KEY = 'integrations:jobs';

/**
 * On duty the player's job becomes the department's (see assignJob), off duty it goes back to the fallback job.
 * Only a job the bridge set is reverted, on the framework it was set on. A framework that is configured but not
 * started is told once (again after it was back); a failing call is told once per framework and kind, later ones
 * at debug level, and never reaches the bridge.
 */
export function createJobIntegration(options: JobIntegrationOptions): Integration {
  const { resources, logger } = options;
  const adapters = createFrameworkAdapters(resources);
  const candidates =
    options.framework === 'auto' ? AUTO_ORDER.map((id) => adapters[id]) : [adapters[options.framework]];
  const fallback: JobAssignment = { job: options.fallbackJob, grade: options.fallbackGrade };
  /** What the bridge set, per player: reverted off duty. */
  const assigned = new Map<number, { adapter: FrameworkAdapter; assignment: JobAssignment }>();
  const queue = new PlayerQueue();
  const warned = new Set<string>();

  const started = (adapter: FrameworkAdapter) => resources.resourceState(adapter.resource) === 'started';

  const resolve = (): FrameworkAdapter | undefined => {
    const adapter = candidates.find(started);
    if (!adapter) {
      logger.once(`${KEY}:not_running`, 'warn', notRunningMessage());
      return undefined;
    }
    logger.forget(`${KEY}:not_running`);
    logger.once(
      `${KEY}:using:${adapter.id}`,
      'info',
      `job framework integration: using ${adapter.label} (${adapter.resource})`,
    );
    return adapter;
  };

  const notRunningMessage = (): string => {
    if (options.framework === 'auto') {
      const names = candidates.map((adapter) => adapter.resource).join(', ');
      return `Config.Integrations.JobFramework is 'auto', but none of ${names} is started: jobs are not changed until one is`;
    }
    const [adapter] = candidates as [FrameworkAdapter];
    return (
      `Config.Integrations.JobFramework is '${adapter.id}', but ${adapter.resource} is ` +
      `${resources.resourceState(adapter.resource)}: jobs are not changed until it is started`
    );
  };

  const report = (adapter: FrameworkAdapter, kind: Failure, what: string, detail: string, quiet: boolean) => {
    const line = `${adapter.label} could not ${what}: ${detail}`;
    const key = `${adapter.id}:${kind}`;
    if (quiet || warned.has(key)) {
      logger.debug(line);
      return;
    }
    warned.add(key);
    logger.warn(`${line} (duty is not affected; further failures like this are logged at debug level)`);
  };

  /** Calls the framework in the player's queue; `settled` runs with the outcome, failures are reported. */
  const apply = (
    src: number,
    adapter: FrameworkAdapter,
    what: string,
    quiet: boolean,
    call: () => JobOutcome | Promise<JobOutcome>,
    settled: (ok: boolean) => void = () => {},
  ) => {
    const finish = (outcome: JobOutcome) => {
      if (!outcome.ok) report(adapter, outcome.kind, what, outcome.detail, quiet);
      else if (outcome.note) logger.debug(`${outcome.note} (player ${src})`);
      settled(outcome.ok);
    };
    const failed = (error: unknown) => {
      report(adapter, 'call_failed', what, errorText(error), quiet);
      settled(false);
    };
    try {
      const result = call();
      if (result instanceof Promise) return result.then(finish, failed);
      finish(result);
    } catch (error) {
      failed(error);
    }
  };

  const goOnDuty = (src: number, departmentSlug: string, rankId: number | null) => {
    const adapter = resolve();
    if (!adapter) return;
    const assignment = assignJob(departmentSlug, rankId, options.departmentJobs, adapter.lowestGrade);
    queue.run(src, () => {
      const held = assigned.get(src);
      const previous = held?.adapter === adapter ? held.assignment : undefined;
      if (previous?.job === assignment.job && previous.grade === assignment.grade) return;
      return apply(
        src,
        adapter,
        `give player ${src} the job ${assignment.job} (grade ${assignment.grade})`,
        false,
        () => adapter.onDuty(src, assignment, previous),
        (ok) => {
          // A refused job leaves the player's own job in place, and that is not the bridge's to revert.
          if (ok) assigned.set(src, { adapter, assignment });
        },
      );
    });
  };

  const goOffDuty = (src: number, dropped: boolean) => {
    queue.run(src, () => {
      const held = assigned.get(src);
      if (!held) return;
      assigned.delete(src);
      const { adapter, assignment } = held;
      if (!started(adapter)) {
        logger.debug(`${adapter.resource} is not started: the job of player ${src} is left as it is`);
        return;
      }
      const what = adapter.usesFallback
        ? `give player ${src} the job ${fallback.job} (grade ${fallback.grade}) back`
        : `remove the group ${assignment.job} from player ${src}`;
      // A dropped player may already be unloaded by the framework (event order across resources is not fixed).
      return apply(src, adapter, what, dropped, () => adapter.offDuty(src, assignment, fallback));
    });
  };

  return {
    name: 'job framework',
    dutyChanged(change: DutyChange) {
      if (!change.onDuty) {
        goOffDuty(change.src, change.reason === 'dropped');
      } else if (change.departmentSlug) {
        goOnDuty(change.src, change.departmentSlug, change.rankId);
      } else {
        logger.debug(`player ${change.src} is on duty without a department slug: no job to give`);
      }
    },
    playerDropped(src: number) {
      queue.run(src, () => {
        assigned.delete(src);
      });
    },
  };
}
