import * as z from '../zod-mini.js';
import { type BridgeConfig, type ConfigShape, configShape } from './schema.js';

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

const describeValue = (value: unknown): string => {
  if (typeof value === 'string') return `'${value}'`;
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'object') return 'a table';
  return String(value);
};

const defaultOf = (leaf: z.ZodMiniType): unknown => leaf.parse(undefined);

function validateShape(shape: ConfigShape, raw: unknown, prefix: string, problems: ConfigProblem[]): unknown {
  const record = asRecord(raw);
  if (raw !== undefined && raw !== null && record === undefined) {
    problems.push({ key: prefix, kind: 'invalid', message: `${prefix} must be a table; using the defaults` });
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
    } else {
      const fallback = defaultOf(entry);
      const reason = parsed.error.issues[0]?.message ?? 'invalid value';
      problems.push({
        key: path,
        kind: 'invalid',
        message: `${path} = ${describeValue(values[key])} is not valid (${reason}); using the default ${describeValue(fallback)}`,
      });
      result[key] = fallback;
    }
  }
  for (const key of Object.keys(values)) {
    if (!(key in shape)) {
      const path = prefix ? `${prefix}.${key}` : key;
      problems.push({ key: path, kind: 'unknown', message: `${path} is not a known option and is ignored` });
    }
  }
  return result;
}

/** Validates the owner's config.lua table key by key; a bad or missing value falls back to its default. */
export function validateConfig(raw: unknown): ValidatedConfig {
  const problems: ConfigProblem[] = [];
  const config = validateShape(configShape, raw, '', problems) as BridgeConfig;
  return { config, problems };
}

/** The configuration a server gets with an untouched config.lua. */
export const defaultConfig = (): BridgeConfig => validateConfig({}).config;
