import { catchError, concatMap, defer, EMPTY, map, type Observable, of } from 'rxjs';
import type { DepartmentJobs } from '../../../shared/config/department-jobs.js';
import type { JobFramework } from '../../../shared/config/schema.js';
import type { KeyValueStore, Logger } from '../../kernel/index.js';
import { errorText, LanesPerKey } from '../../kernel/index.js';
import type { DutyChange, Integration, ResourcePort } from '../integration.js';
import {
  type Answer,
  answer$,
  assignJob,
  type FrameworkAdapter,
  type FrameworkId,
  type JobAssignment,
  JobReports,
  type PlayerRead,
  type ReportedFailure,
} from './job-framework.js';
import { type JobGiven, JobLedger } from './job-ledger.js';
import { createOxCoreAdapter, createQboxAdapter } from './multi-job-frameworks.js';
import { createEsxAdapter, createQbCoreAdapter } from './single-job-frameworks.js';

export interface JobIntegrationOptions {
  framework: JobFramework;
  fallbackJob: string;
  fallbackGrade: number;
  departmentJobs: DepartmentJobs;
  resources: ResourcePort;
  logger: Logger;
  /** Resource KVP: what the bridge gave a character is kept there until they have their own back. */
  store: KeyValueStore;
  wallNow: () => number;
  /** The players online when the bridge starts (a restart of the bridge with players on). */
  connectedPlayers: () => readonly number[];
}

type Adapter = FrameworkAdapter<unknown>;
type Loaded = PlayerRead<unknown> & { ok: true };
/** What the bridge gave a player on duty in this run, with what they held before. */
type OnDuty = Pick<JobGiven, 'character' | 'given' | 'before'> & { adapter: Adapter };

const KEY = 'integrations:jobs';
const sameAssignment = (a: JobAssignment, b: JobAssignment) => a.job === b.job && a.grade === b.grade;

/**
 * On duty the player gets the department's job (see assignJob) through the framework's own calls; off duty they
 * get back exactly what they held before, and nothing the bridge did not add is taken. What the bridge gave is
 * kept in KVP until then, so a server that dies, or a framework that unloads the player before the bridge heard of
 * the drop, is made good the next time the framework loads that character. A framework that refuses is reported
 * once with the fix; duty never depends on a framework.
 */
export function createJobIntegration(options: JobIntegrationOptions): Integration {
  const { resources, logger } = options;
  const adapters = createFrameworkAdapters(resources);
  const candidates =
    options.framework === 'auto' ? AUTO_ORDER.map((id) => adapters[id]) : [adapters[options.framework]];
  const fallback: JobAssignment = { job: options.fallbackJob, grade: options.fallbackGrade };
  const ledger = new JobLedger(options.store);
  const reports = new JobReports(logger);
  const onDuty = new Map<number, OnDuty>();
  /**
   * On duty before the framework loaded the player's character (a shift that goes on after a game crash resumes at
   * the join, before the character is chosen): the department's job is given once the framework loads it.
   */
  const waitingForCharacter = new Map<number, { slug: string; rankId: number | null }>();
  // Each player's framework calls, one after another: an "off" never overtakes the "on" before it (ox_core answers
  // later), and what answers at once runs at once (a resource stop gives no later tick).
  const queue = new LanesPerKey<number>((error) =>
    logger.once(`${KEY}:queued`, 'warn', `the job framework integration failed on a queued call: ${errorText(error)}`),
  );

  const started = (adapter: Adapter) => resources.resourceState(adapter.resource) === 'started';

  const resolve = (): Adapter | undefined => {
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
    const adapter = candidates[0] as Adapter;
    return (
      `Config.Integrations.JobFramework is '${adapter.id}', but ${adapter.resource} is ` +
      `${resources.resourceState(adapter.resource)}: jobs are not changed until it is started`
    );
  };

  /** A framework's outcome, reported when it failed (a refusal, a player it has not loaded, a throw). */
  const finish = <T extends { ok: boolean }>(adapter: Adapter, what: string, quiet: boolean, outcome: T) => {
    if (!outcome.ok) reports.failed(adapter, what, outcome as unknown as ReportedFailure, quiet);
    else if ('note' in outcome && typeof outcome.note === 'string') logger.debug(outcome.note);
    return outcome;
  };
  const callFailed = (error: unknown): ReportedFailure => ({
    ok: false,
    kind: 'call_failed',
    detail: errorText(error),
  });

  /**
   * A framework call, answered now or later, whose failure is reported and comes back as `ok: false`: nothing
   * escapes into the bridge. Synchronous when the framework answers at once.
   */
  const attempt = <T extends { ok: boolean }>(
    adapter: Adapter,
    what: string,
    quiet: boolean,
    call: () => Answer<T>,
  ): Observable<T | ReportedFailure> =>
    defer(() => answer$(call())).pipe(
      catchError((error: unknown) => of(callFailed(error))),
      map((outcome: T | ReportedFailure) => finish(adapter, what, quiet, outcome)),
    );

  /** Reads what the player holds now: frameworks answer this at once. */
  const read = (adapter: Adapter, src: number, what: string, quiet: boolean): PlayerRead<unknown> | ReportedFailure => {
    let outcome: PlayerRead<unknown> | ReportedFailure;
    try {
      outcome = adapter.read(src);
    } catch (error) {
      outcome = callFailed(error);
    }
    return finish(adapter, what, quiet, outcome);
  };

  /** Gives the department's job; `before` is what the player held before this duty, `holding` what the bridge gave. */
  const give = (
    src: number,
    adapter: Adapter,
    now: Loaded,
    target: JobAssignment,
    before: unknown,
    holding?: JobAssignment,
  ) => {
    const record = (given: JobAssignment) => ({
      framework: adapter.id,
      character: now.character,
      given,
      before,
      serverId: src,
      since: options.wallNow(),
    });
    // On disk before the framework hears of it: whatever happens next, the player's own job can be given back.
    ledger.keep(record(target));
    const what = `give player ${src} the ${adapter.noun} ${target.job} (grade ${target.grade})`;
    return attempt(adapter, what, false, () => adapter.give(src, now, target)).pipe(
      map((outcome) => {
        // A call that threw may have done part of it: kept, and given back off duty as far as it is still the bridge's.
        const gave = outcome.ok || outcome.kind === 'call_failed' ? target : holding;
        if (gave) {
          if (gave !== target) ledger.keep(record(gave));
          onDuty.set(src, { adapter, character: now.character, given: gave, before });
        } else {
          ledger.drop(adapter.id, now.character);
          onDuty.delete(src);
        }
      }),
    );
  };

  /** Gives back what the player held before; true when nothing of the bridge's is left to give back. */
  const giveBack = (src: number, now: Loaded, held: OnDuty, quiet: boolean): Observable<boolean> => {
    const { adapter, character, given } = held;
    const what = `give player ${src} back what they held before duty (the bridge gave the ${adapter.noun} ${given.job}, grade ${given.grade})`;
    return attempt(adapter, what, quiet, () => adapter.giveBack(src, now, given, held.before, fallback)).pipe(
      map((outcome) => {
        // Not loaded or a failed call: kept, and given back when the framework loads the character next.
        const done = outcome.ok || outcome.kind === 'refused';
        if (done) ledger.drop(adapter.id, character);
        return done;
      }),
    );
  };

  const goOnDuty = (src: number, departmentSlug: string, rankId: number | null) => {
    const adapter = resolve();
    if (!adapter) return;
    const target = assignJob(departmentSlug, rankId, options.departmentJobs, adapter.lowestGrade);
    queue.run(src, () => {
      const current = onDuty.get(src);
      const held = current?.adapter === adapter ? current : undefined;
      if (held && sameAssignment(held.given, target)) return;
      const now = read(
        adapter,
        src,
        `give player ${src} the ${adapter.noun} ${target.job} (grade ${target.grade})`,
        false,
      );
      if (!now.ok) {
        if (now.kind === 'not_loaded') waitingForCharacter.set(src, { slug: departmentSlug, rankId });
        return;
      }
      waitingForCharacter.delete(src);
      if (!held || held.character !== now.character) return give(src, adapter, now, target, now.holdings);
      if (adapter.holds === 'job' || held.given.job === target.job) {
        return give(src, adapter, now, target, held.before, held.given);
      }
      // Another department's group beside the last one: the last one goes first (ox_core allows one group of a
      // type, Qbox a number of jobs), and the player is given the new one from what they held before.
      return giveBack(src, now, held, false).pipe(
        concatMap((done) => {
          onDuty.delete(src);
          if (!done) return EMPTY;
          const again = read(adapter, src, `give player ${src} the ${adapter.noun} ${target.job}`, false);
          return again.ok ? give(src, adapter, again, target, held.before) : EMPTY;
        }),
      );
    });
  };

  /** `only`: give back only what this framework gave (it is unloading the player). */
  const goOffDuty = (src: number, reason: DutyChange['reason'], only?: Adapter) => {
    const dropped = reason === 'dropped';
    if (!only) waitingForCharacter.delete(src);
    queue.run(src, () => {
      const held = onDuty.get(src);
      if (!held || (only && held.adapter !== only)) return;
      onDuty.delete(src);
      const { adapter } = held;
      if (!started(adapter)) {
        logger.debug(`${adapter.resource} is not started: player ${src} gets their own back when it loads them again`);
        return;
      }
      if (reason === 'resource_stop' && adapter.answersLater) {
        logger.debug(
          `the bridge is stopping: player ${src} gets their own back from ${adapter.label} at its next start`,
        );
        return;
      }
      // A dropped player may already be unloaded by the framework (event order across resources is not fixed).
      const now = read(adapter, src, `give player ${src} back what they held before duty`, dropped);
      if (!now.ok) return;
      if (now.character !== held.character) {
        logger.debug(`player ${src} plays another character now: ${held.character} gets their own back when loaded`);
        return;
      }
      return giveBack(src, now, held, dropped);
    });
  };

  /** A character the framework loaded who still has what the bridge gave in a run or session that ended. */
  const giveBackKept = (adapter: Adapter, src: number, character?: string) => {
    if (character !== undefined && !ledger.has(adapter.id, character)) return;
    queue.run(src, () => {
      const now = read(adapter, src, `give player ${src} back what they held before duty`, true);
      if (!now.ok || (character !== undefined && now.character !== character)) return;
      const current = onDuty.get(src);
      if (current?.adapter === adapter && current.character === now.character) return;
      const kept = ledger.find(adapter, now.character);
      if (!kept.found) {
        if ('problem' in kept) {
          logger.error(
            `the kept job record of ${adapter.label} character ${now.character} could not be read (${kept.problem}); it is set aside as ${kept.movedTo}`,
          );
        }
        return;
      }
      const held: OnDuty = { adapter, character: now.character, given: kept.record.given, before: kept.record.before };
      return giveBack(src, now, held, false).pipe(
        map((done) => {
          if (!done) return;
          logger.info(
            `gave player ${src} (character ${now.character}) back what they had before going on duty: that duty ended without it (a server that stopped, or a framework that unloaded them first)`,
          );
        }),
      );
    });
  };

  for (const adapter of candidates) {
    adapter.onCharacterLoaded((src, character) => {
      giveBackKept(adapter, src, character);
      const waiting = waitingForCharacter.get(src);
      if (!waiting) return;
      waitingForCharacter.delete(src);
      goOnDuty(src, waiting.slug, waiting.rankId);
    });
    // The framework saves the player next: their own job goes back now, whatever the bridge hears later.
    adapter.onCharacterUnloading?.((src) => goOffDuty(src, 'dropped', adapter));
  }
  if (!ledger.isEmpty()) {
    const adapter = candidates.find(started);
    if (adapter) for (const src of options.connectedPlayers()) giveBackKept(adapter, src);
  }

  return {
    name: 'job framework',
    dutyChanged(change: DutyChange) {
      if (!change.onDuty) {
        goOffDuty(change.src, change.reason);
      } else if (change.departmentSlug) {
        goOnDuty(change.src, change.departmentSlug, change.rankId);
      } else {
        logger.debug(`player ${change.src} is on duty without a department slug: no job to give`);
      }
    },
    settled(change: DutyChange) {
      if (!change.onDuty) return;
      queue.run(change.src, () => {
        onDuty.get(change.src)?.adapter.dutySettled?.(change.src, true);
      });
    },
    playerDropped(src: number) {
      waitingForCharacter.delete(src);
      queue.run(src, () => {
        onDuty.delete(src);
        for (const adapter of candidates) adapter.forget?.(src);
      });
    },
    footprint: () => ({ lanes: queue.open, onDuty: onDuty.size, waitingForCharacter: waitingForCharacter.size }),
  };
}

/**
 * The order `'auto'` tries them in. Qbox comes before QBCore because qbx_core also provides `qb-core` for the
 * resources written for QBCore; ox_core last because a server may run it beside ESX or QBCore for its other parts.
 */
export const AUTO_ORDER: readonly FrameworkId[] = ['qbox', 'qbcore', 'esx', 'ox_core'];

export function createFrameworkAdapters(resources: ResourcePort): Record<FrameworkId, FrameworkAdapter> {
  return {
    esx: createEsxAdapter(resources),
    qbcore: createQbCoreAdapter(resources),
    qbox: createQboxAdapter(resources),
    ox_core: createOxCoreAdapter(resources),
  };
}
