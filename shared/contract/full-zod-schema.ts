import { z } from 'zod';

// Dev-only, for the OpenAPI generator: the bridge bundle never imports this.

type Schema = z.core.$ZodType;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && '_zod' in value && 'def' in (value as Schema)._zod;

const fullZodOf = new WeakMap<Schema, z.ZodType>();

/** The full-zod constructor of the same kind: `ZodMiniObject` is `ZodObject`, `ZodMiniISODateTime` is `ZodISODateTime`. */
function fullZodConstructor(schema: Schema): new (def: z.core.$ZodTypeDef) => z.ZodType {
  const mini = schema._zod.constr.name;
  const fullZod = (z as unknown as Record<string, unknown>)[mini.replace(/^ZodMini/, 'Zod')];
  if (typeof fullZod !== 'function') throw new Error(`full zod has no counterpart of ${mini}`);
  return fullZod as new (
    def: z.core.$ZodTypeDef,
  ) => z.ZodType;
}

/** A definition with every schema in it (shape, inner type, options, pipe ends) replaced by its full-zod twin. */
function convertDefinition(def: z.core.$ZodTypeDef): z.core.$ZodTypeDef {
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(def)) {
    // Checks (lengths, patterns, integer formats) belong to zod's core and read the same under both.
    if (key === 'checks') converted[key] = value;
    else if (isSchema(value)) converted[key] = asFullZod(value);
    else if (Array.isArray(value) && value.every(isSchema)) converted[key] = value.map(asFullZod);
    else if (key === 'shape') {
      converted[key] = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, asFullZod(v)]),
      );
    } else converted[key] = value;
  }
  return converted as unknown as z.core.$ZodTypeDef;
}

/**
 * A contract schema (zod/mini) as full zod, for @asteasolutions/zod-to-openapi, which reads schemas through full zod's
 * methods (`.meta()`, `.minLength`, `.format`, `.unwrap()`) that zod/mini's schemas do not have. Both flavours build
 * the same definitions on zod's core, so the twin is the full-zod schema of the same definition, with the metadata
 * the global registry holds for the original: the generated document does not depend on the flavour.
 */
export function asFullZod<Shape extends z.core.$ZodShape>(schema: z.core.$ZodObject<Shape>): z.ZodObject<Shape>;
export function asFullZod<T extends Schema>(schema: T): z.ZodType<z.output<T>, z.input<T>>;
export function asFullZod<T extends Schema>(schema: T): z.ZodType<z.output<T>, z.input<T>> {
  if (schema instanceof z.ZodType) return schema as z.ZodType<z.output<T>, z.input<T>>;
  const known = fullZodOf.get(schema);
  if (known) return known as z.ZodType<z.output<T>, z.input<T>>;
  const Constructor = fullZodConstructor(schema);
  const twin = new Constructor(convertDefinition(schema._zod.def));
  // A copy made by `withMeta` (full zod's `.meta()`) knows the schema it was copied from, and the generator reads
  // its metadata through that link: the twin keeps the link, and only the metadata of its own.
  const { parent } = schema._zod;
  if (parent) twin._zod.parent = asFullZod(parent);
  const meta = z.globalRegistry._map.get(schema);
  if (meta) z.globalRegistry.add(twin, meta);
  fullZodOf.set(schema, twin);
  return twin as z.ZodType<z.output<T>, z.input<T>>;
}
