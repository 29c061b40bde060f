// Bytes of JS heap a duty toggle allocates: the lever behind the toggle's p99 (its collections). Measured so a
// redesign of the duty core can be compared before and after. See docs/budget.md, "Bytes allocated per toggle".
import type { DutyOutcome } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import {
  type AllocationTotals,
  bytesPerHeapReading,
  gcSeen,
  heapUsed,
  meterAllocations,
  overheadPerStretch,
} from '../support/allocation-meter.js';
import { population } from '../support/population.js';
import { fillServer, startReplayedSim } from '../support/replayed-sim.js';
import { ResourceVariants, serverOnlyManifest } from '../support/resource-variants.js';
import { fullGc } from '../support/settled-heap.js';
import { percentile } from '../support/stats.js';

export interface ToggleAllocationOptions {
  /** The bridge's resource folder, with config.lua raising the panel budget (MICRO_CONFIG_LINES). */
  resource: string;
  /** Players online and on duty around the togglers (default 2048 and 400, as the micro figures). */
  online?: number;
  onDuty?: number;
  toggles?: number;
}

export interface ToggleAllocationResult {
  online: number;
  onDuty: number;
  /** Toggles measured in each pass, and how many of them a collection ran in (left out of every figure). */
  toggles: number;
  collided: number;
  /** Every byte the process allocated per toggle, the meter off (pass one). */
  totalBytesP50: number;
  totalBytesMean: number;
  /** The simulator's own side (natives, routing, replication, frames, the replayed panel's synchronous part), from
   * the host-work meter (pass two), its own allocations taken off. */
  hostBytesMean: number;
  /** All of it minus the simulator's: what the bridge allocates per toggle, and going on / off duty apart. */
  bridgeBytesMean: number;
  onBytesMean: number;
  offBytesMean: number;
  /** What one switch of the meter allocates by itself (taken off per stretch), and stretches per toggle. */
  overheadPerStretchBytes: number;
  stretchesPerToggle: number;
}

const TOGGLERS = 4;
const WARM_UP = 4 * TOGGLERS;

type Gc = (options?: { type: 'minor' | 'major'; execution?: 'sync' }) => void;

export async function runToggleAllocation(options: ToggleAllocationOptions): Promise<ToggleAllocationResult> {
  const online = options.online ?? 2048;
  const onDuty = options.onDuty ?? 400;
  const measured = options.toggles ?? 200;
  const gc = fullGc() as Gc;
  const gcMinor = () => gc({ type: 'minor', execution: 'sync' });
  const variants = new ResourceVariants(options.resource);
  const users = population(online);
  const world = await startReplayedSim(users);
  const { sim } = world;
  try {
    sim.addResource(variants.copy(serverOnlyManifest), 'bridge');
    await sim.startResource('bridge');
    const { members } = await fillServer(sim, users, { online, onDuty });
    const togglers = members.slice(0, TOGGLERS);
    if (togglers.length < TOGGLERS) throw new Error('bench: too few department members to toggle');
    const toggle = async (index: number) => {
      const player = togglers[index % TOGGLERS] as SimPlayer;
      const on = !(sim.exports.bridge.IsPlayerOnDuty(player.id) as boolean);
      gcMinor();
      const from = performance.now();
      const before = read();
      const outcome = await sim.resolve(sim.exports.bridge.SetPlayerDuty(player.id, on) as Promise<DutyOutcome>);
      const after = read();
      const to = performance.now();
      if (!outcome.ok) throw new Error(`bench: a toggle failed: ${JSON.stringify(outcome)}`);
      return { on, before, after, from, to };
    };
    const collections = gcSeen();

    // Pass one, nothing metered: every byte, less the one heap reading that falls inside.
    let read = (): AllocationTotals => ({ host: 0, script: heapUsed(), hostStretches: 0, scriptStretches: 0 });
    const readingBytes = bytesPerHeapReading();
    const whole: Array<{ on: boolean; bytes: number; from: number; to: number }> = [];
    for (let index = 0; index < WARM_UP + measured; index++) {
      const { on, before, after, from, to } = await toggle(index);
      if (index >= WARM_UP) whole.push({ on, bytes: after.script - before.script - readingBytes, from, to });
    }

    // Pass two, the host-work meter on: the simulator's share.
    const split: Array<{ on: boolean; host: number; stretches: number; from: number; to: number }> = [];
    sim.hostWork.start('bridge');
    const meter = meterAllocations(sim.hostWork);
    let overhead: number;
    read = () => meter.totals();
    try {
      const raw = [];
      for (let index = 0; index < WARM_UP + measured; index++) {
        const sample = await toggle(index);
        if (index >= WARM_UP) raw.push(sample);
      }
      overhead = overheadPerStretch(sim.hostWork, meter, gcMinor);
      for (const { on, before, after, from, to } of raw) {
        const hostStretches = after.hostStretches - before.hostStretches;
        const stretches = hostStretches + after.scriptStretches - before.scriptStretches;
        split.push({ on, host: after.host - before.host - hostStretches * overhead, stretches, from, to });
      }
    } finally {
      meter.uninstall();
      sim.hostWork.stop();
    }
    if (world.replayed.replayed < 2 * measured) throw new Error('bench: the panel answered toggles itself');
    const pauses = await collections.stop();
    const clean = <T extends { from: number; to: number }>(samples: T[]) =>
      samples.filter(
        (sample) => !pauses.some((pause) => pause.start < sample.to && pause.start + pause.duration > sample.from),
      );
    const wholeClean = clean(whole);
    const splitClean = clean(split);
    const collided = whole.length - wholeClean.length + split.length - splitClean.length;
    if (Math.min(wholeClean.length, splitClean.length) < measured / 2) {
      throw new Error(`bench: collections ran in ${collided} toggles`);
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
    const hostOf = (on: boolean) => mean(splitClean.filter((sample) => sample.on === on).map((sample) => sample.host));
    const wholeOf = (on: boolean) =>
      mean(wholeClean.filter((sample) => sample.on === on).map((sample) => sample.bytes));
    const totalBytesMean = mean(wholeClean.map((sample) => sample.bytes));
    const hostBytesMean = mean(splitClean.map((sample) => sample.host));
    sim.assertNoErrors();
    return {
      online,
      onDuty,
      toggles: measured,
      collided,
      totalBytesP50: percentile(
        wholeClean.map((sample) => sample.bytes),
        0.5,
      ) as number,
      totalBytesMean,
      hostBytesMean,
      bridgeBytesMean: totalBytesMean - hostBytesMean,
      onBytesMean: wholeOf(true) - hostOf(true),
      offBytesMean: wholeOf(false) - hostOf(false),
      overheadPerStretchBytes: overhead,
      stretchesPerToggle: percentile(
        splitClean.map((sample) => sample.stretches),
        0.5,
      ) as number,
    };
  } finally {
    await world.close();
    variants.remove();
  }
}
