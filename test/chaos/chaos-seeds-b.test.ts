// npm test's second share of the chaos test's fixed seeds (fixed-seeds.ts); chaos-seeds-a.test.ts says why three.
import { describeFixedSeeds } from './fixed-seeds.js';

describeFixedSeeds([2, 5, 6, 7]);
