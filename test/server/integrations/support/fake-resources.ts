import type { ResourcePort } from '../../../../server/integrations/integration.js';
import { createLogger, type Logger } from '../../../../server/kernel/log.js';

/** Any function: exports take whatever their resource declares. */
type Fn = (...args: never[]) => unknown;

/**
 * Other resources as an integration sees them, in memory: resources with a state and exports, and local events
 * dispatched synchronously to every listener as FXServer does. Export calls fail the way FiveM's do: a missing
 * export throws `No such export`, a failing one a generic error; every call and emitted event is recorded.
 */
export class FakeResources implements ResourcePort {
  readonly exportCalls: Array<{ resource: string; name: string; args: unknown[] }> = [];
  readonly emitted: Array<{ event: string; args: unknown[] }> = [];
  /** Export calls (`resource.name`) and emitted events (`event`) in the order they happened. */
  readonly sequence: string[] = [];
  private readonly states = new Map<string, string>();
  private readonly exports = new Map<string, Record<string, Fn>>();
  private readonly listeners = new Map<string, Array<(...args: unknown[]) => void>>();
  private readonly stops = new Map<string, number>();

  /** A started resource with these exports (replacing what it had). */
  start(resource: string, exports: Record<string, Fn> = {}): void {
    this.states.set(resource, 'started');
    this.exports.set(resource, exports);
  }

  stop(resource: string): void {
    this.stops.set(resource, (this.stops.get(resource) ?? 0) + 1);
    this.states.set(resource, 'stopped');
    this.exports.delete(resource);
    this.dispatch('onResourceStop', [resource]);
  }

  /**
   * A function reference a resource hands out (a field of an object it returns): once the resource stopped, calling
   * it fails as FiveM's dead references do.
   */
  ref<F extends Fn>(resource: string, fn: F): F {
    const stopsThen = this.stops.get(resource) ?? 0;
    return ((...args: never[]) => {
      if ((this.stops.get(resource) ?? 0) !== stopsThen) {
        throw new Error(`Error in nested ref call: reference wasn't valid (did ${resource} restart recently?)`);
      }
      return fn(...args);
    }) as F;
  }

  /** Another resource listening to a local event. */
  listen(event: string, handler: (...args: unknown[]) => void): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), handler]);
  }

  /** Another resource emitting a local event. */
  dispatch(event: string, args: unknown[]): void {
    for (const handler of this.listeners.get(event) ?? []) handler(...args);
  }

  callsTo(resource: string, name?: string): unknown[][] {
    return this.exportCalls
      .filter((call) => call.resource === resource && (name === undefined || call.name === name))
      .map((call) => (name === undefined ? [call.name, ...call.args] : call.args));
  }

  eventsNamed(event: string): unknown[][] {
    return this.emitted.filter((entry) => entry.event === event).map((entry) => entry.args);
  }

  resourceState(name: string): string {
    return this.states.get(name) ?? 'missing';
  }

  hasExport(resource: string, name: string): boolean {
    return typeof this.exports.get(resource)?.[name] === 'function';
  }

  callExport(resource: string, name: string, ...args: unknown[]): unknown {
    const fn = this.exports.get(resource)?.[name];
    if (typeof fn !== 'function') throw new Error(`No such export ${name} in resource ${resource}`);
    this.exportCalls.push({ resource, name, args });
    this.sequence.push(`${resource}.${name}`);
    try {
      return (fn as (...values: unknown[]) => unknown)(...args);
    } catch {
      throw new Error(`An error occurred while calling export ${name} of resource ${resource} - see above for details`);
    }
  }

  /** Net events to clients, recorded as `event` with the target first. */
  emitClient(event: string, src: number, ...args: unknown[]): void {
    this.emitted.push({ event, args: [src, ...args] });
    this.sequence.push(event);
  }

  readonly global = new Map<string, unknown>();
  globalState(key: string): unknown {
    return this.global.get(key);
  }

  emitLocal(event: string, ...args: unknown[]): void {
    this.emitted.push({ event, args });
    this.sequence.push(event);
    this.dispatch(event, args);
  }

  onLocal(event: string, handler: (...args: unknown[]) => void): void {
    this.listen(event, handler);
  }
}

/** A logger at debug level whose lines the test reads back. */
export function recordingLogger(): { logger: Logger; lines: string[]; at: (label: string) => string[] } {
  const lines: string[] = [];
  const logger = createLogger({ print: (line) => lines.push(line), level: 'debug' });
  return { logger, lines, at: (label) => lines.filter((line) => line.startsWith(`${label}:`)) };
}
