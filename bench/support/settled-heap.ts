import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full garbage collection. `node --expose-gc` gives it as a global; without the flag (`npm run bench` runs
 * under tsx) the flag is set at run time and the function taken from a fresh context, where V8 installs it.
 */
export function fullGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const gc = fullGc();
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Heap in use after full collections, without V8's compiled code: that part grows as the JIT optimises more
 * functions, whatever the program keeps (as bench/memory-cycles.ts counts it). A stopped resource's context goes
 * only after several collections (its weak callbacks run between them): collect until the figure holds still.
 */
export async function settledHeapBytes(): Promise<number> {
  let previous = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 12; round++) {
    gc();
    await tick();
    const heap = dataHeapBytes();
    if (round >= 2 && Math.abs(previous - heap) < 16 * 1024) return heap;
    previous = heap;
  }
  return previous;
}

function dataHeapBytes(): number {
  const code = getHeapSpaceStatistics()
    .filter((space) => space.space_name.startsWith('code'))
    .reduce((sum, space) => sum + space.space_used_size, 0);
  return process.memoryUsage().heapUsed - code;
}

/**
 * Heap retained per cycle from readings taken every `perPart` cycles (the first before them): the median of the
 * parts. A leak grows every part; a one-off jump of the heap (some runs show one of about 28 MB, whatever the
 * resource) or a one-off drop (something of the warm-up let go) lands in one part only, so it moves the figure in
 * neither direction.
 */
export function retainedPerCycle(readings: readonly number[], perPart: number): number {
  const parts = readings.slice(1).map((reading, index) => (reading - (readings[index] as number)) / perPart);
  parts.sort((a, b) => a - b);
  return parts[Math.floor(parts.length / 2)] as number;
}
