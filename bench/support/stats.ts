/** The value below which `share` of the sorted values fall (nearest rank). */
export function percentile(values: readonly number[], share: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
}

// The mock panel's deterministic random source (mulberry32), so every run of the bench plays the same scenario.
export { seededRandom } from '../../mock-panel/store/seeded-random.js';
