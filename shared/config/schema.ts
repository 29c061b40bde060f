import { z } from 'zod';
import { ENGLISH, MESSAGE_KEYS, type MessageKey, NOTIFICATION_STYLES, overrideProblem } from '../locale.js';
import { departmentJobsSchema } from './department-jobs.js';
import { DEFAULT_REFRESH_INTERVAL_MS, REFRESH_INTERVAL_RANGE_MS } from './refresh-interval.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEGRADED_MODES = ['refuse', 'queue'] as const;
export type DegradedMode = (typeof DEGRADED_MODES)[number];

export const JOB_FRAMEWORKS = ['auto', 'esx', 'qbcore', 'qbox', 'ox_core'] as const;
export type JobFramework = (typeof JOB_FRAMEWORKS)[number];

const milliseconds = (min: number, max: number) => z.number().int().min(min).max(max);

// Each message is a leaf of its own, so an unusable text falls back to English alone and is named in the console.
const message = (key: MessageKey) =>
  z
    .string()
    .default(ENGLISH[key])
    .superRefine((text, ctx) => {
      const problem = overrideProblem(key, text);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
const localeShape = Object.fromEntries(MESSAGE_KEYS.map((key) => [key, message(key)])) as {
  [K in MessageKey]: ReturnType<typeof message>;
};

/**
 * The options of config.lua, each with its default. Every leaf is validated on its own so one bad value
 * falls back to its default without discarding the rest of the owner's configuration.
 */
export const configShape = {
  RefreshIntervalMs: milliseconds(REFRESH_INTERVAL_RANGE_MS.min, REFRESH_INTERVAL_RANGE_MS.max)
    .default(DEFAULT_REFRESH_INTERVAL_MS)
    .describe('How long a player profile is cached before it is fetched again'),
  RequestTimeoutMs: milliseconds(500, 60_000).default(5_000).describe('Timeout of one panel request'),
  RefreshCooldownMs: milliseconds(0, 3_600_000).default(30_000).describe('Per-player cooldown of /dutyrefresh'),
  LogLevel: z.enum(LOG_LEVELS).default('info').describe('Console verbosity'),
  DegradedMode: z
    .enum(DEGRADED_MODES)
    .default('refuse')
    .describe(
      'While the panel is unreachable: refuse going on duty, or allow it from the cached profile and queue the call',
    ),
  PanelRateLimit: {
    Requests: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(200)
      .describe("Requests per window the bridge assumes until the panel's rate-limit headers tell"),
    WindowMs: milliseconds(1_000, 86_400_000).default(60_000).describe('Length of that window'),
  },
  Integrations: {
    JobFramework: z
      .union([z.literal(false), z.enum(JOB_FRAMEWORKS)])
      .default(false)
      .describe('Job framework that receives the department as the job while on duty'),
    FallbackJob: z.string().min(1).default('unemployed').describe('Job a player returns to off duty'),
    FallbackGrade: z.number().int().min(0).default(0).describe('Grade of the fallback job'),
    DepartmentJobs: departmentJobsSchema.describe(
      'Per department slug: the job it gives (default: the slug) and the grade of each rank id',
    ),
    RcorePolice: z.boolean().default(false).describe('Pass duty state on to rcore_police'),
  },
  Notifications: z
    .enum(NOTIFICATION_STYLES)
    .default('auto')
    .describe("How players see messages: 'auto' (ox_lib's notify while ox_lib runs, else the feed) or 'feed'"),
  Locale: localeShape,
} as const;

type Leaf = z.ZodType;
type Shape = { readonly [key: string]: Leaf | Shape };
type Resolved<S extends Shape> = {
  -readonly [K in keyof S]: S[K] extends Leaf ? z.output<S[K]> : S[K] extends Shape ? Resolved<S[K]> : never;
};

export type BridgeConfig = Resolved<typeof configShape>;
export type ConfigShape = Shape;
