// npm test's first share of the chaos test's fixed seeds (fixed-seeds.ts). The seven are spread over three files of
// about 10 to 16 s each (seed 1 is the longest), so that vitest runs them side by side.
import { describeFixedSeeds } from './fixed-seeds.js';

describeFixedSeeds([1, 4]);
