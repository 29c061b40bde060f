import type { Logger } from '../../kernel/index.js';
import type { FrameworkAdapter, JobFailure } from './job-framework.js';

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
