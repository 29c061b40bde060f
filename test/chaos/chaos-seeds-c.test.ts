// npm test's third share of the chaos test's fixed seeds (fixed-seeds.ts); chaos-seeds-a.test.ts says why three.
import { describeFixedSeeds } from './fixed-seeds.js';

describeFixedSeeds([3]);
