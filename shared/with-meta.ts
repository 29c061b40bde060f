import * as z from './zod-mini.js';

/**
 * Full zod's `.meta()`: a copy of `schema` with `meta` in the global registry, the original left as it was. zod/mini's
 * own `z.meta()` is a check instead, which `z.extend` carries over into every extended schema along with its `id`.
 */
export function withMeta<T extends z.ZodMiniType>(schema: T, meta: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, meta);
  return copy;
}
