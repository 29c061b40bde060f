import * as z from '../zod-mini.js';
import { likelyMeant } from './likely-meant.js';
import { type Accepts, acceptsOf, type BridgeConfig, type ConfigShape, configShape } from './schema.js';

export interface ConfigProblem {
  /** Dotted path of the key in config.lua, e.g. `Integrations.JobFramework`. */
  key: string;
  kind: 'invalid' | 'unknown';
  message: string;
}

export interface ValidatedConfig {
  config: BridgeConfig;
  problems: ConfigProblem[];
}

const isLeaf = (value: unknown): value is z.ZodMiniType => value instanceof z.ZodMiniType;

// Lua's msgpack encoder sends an empty table as an array, so `{}` in config.lua arrives as [].
const asRecord = (value: unknown): Record<string, unknown> | undefined => {
  if (Array.isArray(value) && value.length === 0) return {};
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  return undefined;
};

/** A value as the owner wrote it in config.lua. */
const describeValue = (value: unknown): string => {
  if (typeof value === 'string') return `'${value}'`;
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return value.length === 0 ? '{}' : 'a list';
  if (typeof value === 'object') return Object.keys(value).length === 0 ? '{}' : 'a table';
  return String(value);
};

const defaultOf = (leaf: z.ZodMiniType): unknown => leaf.parse(undefined);

const listed = (names: string[]) => names.join(', ');

// A number or a boolean written as text is the commonest slip; a choice spelt otherwise the next.
function meantValue(leaf: z.ZodMiniType, accepts: Accepts | undefined, value: unknown): unknown {
  const candidates: unknown[] = [];
  if (typeof value === 'string') {
    if (/^-?\d+(\.\d+)?$/.test(value.trim())) candidates.push(Number(value));
    if (value.trim() === 'true' || value.trim() === 'false') candidates.push(value.trim() === 'true');
    if (accepts?.choices) candidates.push(likelyMeant(value, accepts.choices, accepts.aliases));
  }
  candidates.push(...(accepts?.meant?.(value) ?? []));
  return candidates.find(
    (candidate) => candidate !== undefined && candidate !== value && leaf.safeParse(candidate).success,
  );
}

function leafProblem(leaf: z.ZodMiniType, path: string, value: unknown, error: z.core.$ZodError): ConfigProblem {
  const accepts = acceptsOf(leaf);
  // A rule of our own (a message's placeholders, a reserved command name) explains itself; zod's wording does not.
  const custom = error.issues.find((issue) => issue.code === 'custom')?.message;
  const rule = custom ?? `must be ${accepts?.text ?? 'a value of another kind'}`;
  const meant = meantValue(leaf, accepts, value);
  const hint = meant === undefined ? '' : `; did you mean ${describeValue(meant)}?`;
  return {
    key: path,
    kind: 'invalid',
    message: `${path} = ${describeValue(value)} is not valid (${rule}${hint}); using the default ${describeValue(defaultOf(leaf))}`,
  };
}

function entryProblems(leaf: z.ZodMiniType, path: string, value: unknown): ConfigProblem[] {
  return (acceptsOf(leaf)?.entries?.(value) ?? []).map((problem) => {
    const key = `${path}${problem.at}`;
    return problem.kind === 'unknown'
      ? { key, kind: 'unknown', message: `${key} is not a known option and is ignored (${problem.reason})` }
      : {
          key,
          kind: 'invalid',
          message: `${key} = ${describeValue(problem.value)} is not valid (${problem.reason}); ${problem.using}`,
        };
  });
}

// The keys of a table are listed when they are few enough to read in one console line.
const MAX_KEYS_LISTED = 15;

function unknownKeyProblem(shape: ConfigShape, prefix: string, key: string): ConfigProblem {
  const path = prefix ? `${prefix}.${key}` : key;
  const keys = Object.keys(shape);
  const owner = prefix || 'Config';
  const known = keys.length <= MAX_KEYS_LISTED ? `${owner} has ${listed(keys)}` : `see ${owner} in config.lua`;
  const meant = likelyMeant(key, keys);
  return {
    key: path,
    kind: 'unknown',
    message: `${path} is not a known option and is ignored (${known}${meant ? `; did you mean ${meant}?` : ''})`,
  };
}

function validateShape(shape: ConfigShape, raw: unknown, prefix: string, problems: ConfigProblem[]): unknown {
  const record = asRecord(raw);
  if (raw !== undefined && raw !== null && record === undefined) {
    problems.push({
      key: prefix,
      kind: 'invalid',
      message: `${prefix || 'Config'} = ${describeValue(raw)} is not valid (must be a table of ${listed(Object.keys(shape))}); using the default of each`,
    });
  }
  const values = record ?? {};
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(shape)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (!isLeaf(entry)) {
      result[key] = validateShape(entry, values[key], path, problems);
      continue;
    }
    const parsed = entry.safeParse(values[key] ?? undefined);
    if (parsed.success) {
      result[key] = parsed.data;
      problems.push(...entryProblems(entry, path, values[key]));
    } else {
      problems.push(leafProblem(entry, path, values[key], parsed.error));
      result[key] = defaultOf(entry);
    }
  }
  for (const key of Object.keys(values)) {
    if (!(key in shape)) problems.push(unknownKeyProblem(shape, prefix, key));
  }
  return result;
}

/**
 * Validates the owner's config.lua table key by key; a bad or missing value falls back to its default, and each
 * refusal names the key, the value, what is allowed (and the value likely meant) and what is used instead.
 */
export function validateConfig(raw: unknown): ValidatedConfig {
  const problems: ConfigProblem[] = [];
  const config = validateShape(configShape, raw, '', problems) as BridgeConfig;
  return { config, problems };
}

/** The configuration a server gets with an untouched config.lua. */
export const defaultConfig = (): BridgeConfig => validateConfig({}).config;
