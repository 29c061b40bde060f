import { untilAborted } from '../abortable-wait';
import type {
  ErrorsFault,
  FaultKind,
  FaultSettings,
  MalformedFault,
  MalformedMode,
  OutageFault,
  OutageMode,
} from '../controls/schemas';
import { seededRandom } from './seeded-random';

interface Armed<Fault> {
  fault: Fault;
  random: () => number;
}

function arm<Fault extends { seed: number }>(fault: Fault): Armed<Fault> {
  return { fault, random: seededRandom(fault.seed) };
}

function strikes(armed: Armed<{ rate: number }> | null): boolean {
  if (!armed) return false;
  return armed.fault.rate >= 1 || armed.random() < armed.fault.rate;
}

/** The faults a tester injected into `/api/leo`, and the seeded dice that decide which requests they hit. */
export class Faults {
  private latencyMs = 0;
  private errors: Armed<ErrorsFault> | null = null;
  private outage: Armed<OutageFault> | null = null;
  private malformed: Armed<MalformedFault> | null = null;
  private release = new AbortController();
  private hangingNow = 0;

  settings(): FaultSettings {
    return {
      latencyMs: this.latencyMs,
      errors: this.errors ? { ...this.errors.fault } : null,
      outage: this.outage ? { ...this.outage.fault } : null,
      malformed: this.malformed ? { ...this.malformed.fault } : null,
    };
  }

  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  injectErrors(fault: ErrorsFault): void {
    this.errors = arm(fault);
  }

  setOutage(fault: OutageFault): void {
    this.releaseHangs();
    this.outage = arm(fault);
  }

  setMalformed(fault: MalformedFault): void {
    this.malformed = arm(fault);
  }

  /** Clears one kind of fault, or all. Ending an outage lets hanging requests go (their connection is reset). */
  clear(kind?: FaultKind): void {
    if (kind === undefined || kind === 'latency') this.latencyMs = 0;
    if (kind === undefined || kind === 'errors') this.errors = null;
    if (kind === undefined || kind === 'outage') {
      this.outage = null;
      this.releaseHangs();
    }
    if (kind === undefined || kind === 'malformed') this.malformed = null;
  }

  get latency(): number {
    return this.latencyMs;
  }

  rollOutage(): OutageMode | null {
    return strikes(this.outage) ? (this.outage?.fault.mode ?? null) : null;
  }

  rollError(): ErrorsFault['error'] | null {
    return strikes(this.errors) ? (this.errors?.fault.error ?? null) : null;
  }

  rollMalformed(): MalformedMode | null {
    return strikes(this.malformed) ? (this.malformed?.fault.mode ?? null) : null;
  }

  /** Requests being held by a `hang` outage right now. */
  get hanging(): number {
    return this.hangingNow;
  }

  /** Holds a request until its client gives up or the outage is cleared or replaced. */
  async hang(clientGone: AbortSignal): Promise<void> {
    this.hangingNow += 1;
    try {
      await untilAborted(AbortSignal.any([clientGone, this.release.signal]));
    } finally {
      this.hangingNow -= 1;
    }
  }

  private releaseHangs(): void {
    this.release.abort();
    this.release = new AbortController();
  }
}
