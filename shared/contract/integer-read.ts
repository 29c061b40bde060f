import * as z from '../zod-mini.js';

/**
 * A positive integer as the bridge reads it: a JSON number, or the same number as decimal digits (`"1"`), as PHP
 * panels and large-number-safe JSON encoders send ids. The contract publishes an integer and the mock panel sends
 * one; only the reading is tolerant. Anything else (`"1e3"`, `" 1"`, `"lspd"`, `true`) still fails, as does a number
 * past the safe integers.
 */
export const positiveIntRead = () =>
  z.pipe(
    z.pipe(
      z.union([z.number(), z.string().check(z.regex(/^[0-9]+$/))]),
      z.transform((value) => Number(value)),
    ),
    z.int().check(z.gte(1)),
  );
