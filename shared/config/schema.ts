import { ENGLISH, MESSAGE_KEYS, type MessageKey, NOTIFICATION_STYLES, overrideProblem } from '../locale.js';
import { withMeta } from '../with-meta.js';
import * as z from '../zod-mini.js';
import { type DepartmentJobsProblem, departmentJobsSchema, parseDepartmentJobs } from './department-jobs.js';
import { DEFAULT_DUTY_COMMAND_NAME, DUTY_MENU_STYLES, dutyCommandNameProblem } from './duty-command.js';
import { DEFAULT_REFRESH_INTERVAL_MS, REFRESH_INTERVAL_RANGE_MS } from './refresh-interval.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEGRADED_MODES = ['refuse', 'queue'] as const;
export type DegradedMode = (typeof DEGRADED_MODES)[number];

export const JOB_FRAMEWORKS = ['auto', 'esx', 'qbcore', 'qbox', 'ox_core'] as const;
export type JobFramework = (typeof JOB_FRAMEWORKS)[number];

/** What a key of config.lua takes, so that a refused value can be answered with what would have been accepted. */
export interface Accepts {
  /** Completes "must be ...". */
  text: string;
  /** The values of a choice, to find the one a near miss meant. */
  choices?: readonly string[];
  /** Other names owners write for a choice (a framework's resource name), to the choice meant. */
  aliases?: Readonly<Record<string, string>>;
  /** Values the owner may have meant, beyond the generic ones (a number written as text, say). */
  meant?: (value: unknown) => unknown[];
  /** For a leaf that refuses only its wrong entries: those entries' problems (the leaf itself then always parses). */
  entries?: (value: unknown) => DepartmentJobsProblem[];
}

const acceptsByLeaf = new WeakMap<z.ZodMiniType, Accepts>();

/** What a leaf of configShape takes. */
export const acceptsOf = (leaf: z.ZodMiniType): Accepts | undefined => acceptsByLeaf.get(leaf);

const accepting = <T extends z.ZodMiniType>(leaf: T, accepts: Accepts): T => {
  acceptsByLeaf.set(leaf, accepts);
  return leaf;
};

const quoted = (value: string | false) => (value === false ? 'false' : `'${value}'`);
const listed = (values: readonly string[]) =>
  values.length < 2 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

const oneOf = (values: readonly (string | false)[], aliases?: Readonly<Record<string, string>>): Accepts => ({
  text: listed(values.map(quoted)),
  choices: values.filter((value): value is string => value !== false),
  ...(aliases ? { aliases } : {}),
});

const milliseconds = (min: number, max: number) => z.int().check(z.gte(min), z.lte(max));
const inMilliseconds = (min: number, max: number): Accepts => ({
  text: `a whole number of milliseconds from ${min} to ${max}`,
  // A value below the range is most often written in seconds.
  meant: (value) => (typeof value === 'number' && value < min ? [value * 1000] : []),
});
const YES_NO: Readonly<Record<string, boolean>> = { yes: true, on: true, no: false, off: false };
const TRUE_OR_FALSE: Accepts = {
  text: 'true or false',
  // Lua has no yes/no and no truthy numbers in a config: 'yes', 'off' or 1 mean the boolean.
  meant: (value) =>
    typeof value === 'string' && value.toLowerCase() in YES_NO
      ? [YES_NO[value.toLowerCase()]]
      : value === 0 || value === 1
        ? [value === 1]
        : [],
};

// Each message is a leaf of its own, so an unusable text falls back to English alone and is named in the console.
const message = (key: MessageKey) =>
  accepting(
    z._default(z.string(), ENGLISH[key]).check(
      z.superRefine((text, ctx) => {
        const problem = overrideProblem(key, text);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    ),
    { text: 'text shown to players' },
  );
const localeShape = Object.fromEntries(MESSAGE_KEYS.map((key) => [key, message(key)])) as {
  [K in MessageKey]: ReturnType<typeof message>;
};

/** A leaf: what it accepts, its default, and what it is for. */
const option = <T extends z.ZodMiniType>(
  schema: T,
  fallback: z.core.util.NoUndefined<z.output<T>>,
  description: string,
  accepts: Accepts,
) => accepting(withMeta(z._default(schema, fallback), { description }), accepts);

// The resource a framework runs as is an easy name to write for it.
const FRAMEWORK_RESOURCES: Readonly<Record<string, JobFramework>> = {
  es_extended: 'esx',
  'qb-core': 'qbcore',
  qbx_core: 'qbox',
};

/**
 * The options of config.lua, each with its default. Every leaf is validated on its own so one bad value
 * falls back to its default without discarding the rest of the owner's configuration.
 */
export const configShape = {
  RefreshIntervalMs: option(
    milliseconds(REFRESH_INTERVAL_RANGE_MS.min, REFRESH_INTERVAL_RANGE_MS.max),
    DEFAULT_REFRESH_INTERVAL_MS,
    'How long a player profile is cached before it is fetched again',
    inMilliseconds(REFRESH_INTERVAL_RANGE_MS.min, REFRESH_INTERVAL_RANGE_MS.max),
  ),
  RequestTimeoutMs: option(
    milliseconds(500, 60_000),
    5_000,
    'Timeout of one panel request',
    inMilliseconds(500, 60_000),
  ),
  RefreshCooldownMs: option(
    milliseconds(0, 3_600_000),
    30_000,
    'Per-player cooldown of /dutyrefresh',
    inMilliseconds(0, 3_600_000),
  ),
  LogLevel: option(z.enum(LOG_LEVELS), 'info', 'Console verbosity', oneOf(LOG_LEVELS)),
  DegradedMode: option(
    z.enum(DEGRADED_MODES),
    'refuse',
    'While the panel is unreachable: refuse going on duty, or allow it from the cached profile and queue the call',
    oneOf(DEGRADED_MODES),
  ),
  PanelRateLimit: {
    Requests: option(
      z.int().check(z.gte(1), z.lte(100_000)),
      200,
      "Requests per window the bridge assumes until the panel's rate-limit headers tell",
      { text: 'a whole number from 1 to 100000' },
    ),
    WindowMs: option(
      milliseconds(1_000, 86_400_000),
      60_000,
      'Length of that window',
      inMilliseconds(1_000, 86_400_000),
    ),
  },
  Integrations: {
    JobFramework: option(
      z.union([z.literal(false), z.enum(JOB_FRAMEWORKS)]),
      false,
      "Job framework that gives the department's job while on duty, and the player's own back off duty",
      // `true` reads as "on": 'auto' is the framework that then makes sense.
      { ...oneOf([false, ...JOB_FRAMEWORKS], FRAMEWORK_RESOURCES), meant: (value) => (value === true ? ['auto'] : []) },
    ),
    FallbackJob: option(
      z.string().check(z.minLength(1)),
      'unemployed',
      "ESX and QBCore: the job off duty when the framework no longer has the player's own",
      { text: 'a job name' },
    ),
    FallbackGrade: option(z.int().check(z.gte(0)), 0, 'Grade of the fallback job', {
      text: 'a whole number from 0',
    }),
    DepartmentJobs: accepting(
      withMeta(departmentJobsSchema, {
        description: 'Per department slug: the job it gives (default: the slug) and the grade of each rank id',
      }),
      {
        text: "a table keyed by department slug, e.g. { lspd = { Job = 'police' } }",
        entries: (value) => parseDepartmentJobs(value).problems,
      },
    ),
    RcorePolice: option(z.boolean(), false, 'Pass duty state on to rcore_police', TRUE_OR_FALSE),
  },
  Notifications: option(
    z.enum(NOTIFICATION_STYLES),
    'auto',
    "How players see messages: 'auto' (ox_lib's notify while ox_lib runs, else the feed) or 'feed'",
    oneOf(NOTIFICATION_STYLES),
  ),
  DutyCommand: {
    Enabled: option(z.boolean(), false, "Register the players' duty command (/duty)", TRUE_OR_FALSE),
    Name: option(
      z.string().check(
        z.superRefine((name, ctx) => {
          const problem = dutyCommandNameProblem(name);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      ),
      DEFAULT_DUTY_COMMAND_NAME,
      'Name of the duty command, without the /',
      {
        text: 'a command name, without the /',
        meant: (value) => (typeof value === 'string' ? [value.replace(/^\//, '')] : []),
      },
    ),
    Menu: option(
      z.enum(DUTY_MENU_STYLES),
      'auto',
      "How a player with several departments chooses: 'auto' (ox_lib's context menu while ox_lib runs, else a list in chat) or 'chat'",
      oneOf(DUTY_MENU_STYLES),
    ),
  },
  Metrics: option(
    z.boolean(),
    false,
    'Serve Prometheus metrics at /<resource>/metrics, behind the bearer token of the bridge_metrics_token convar',
    TRUE_OR_FALSE,
  ),
  AcePermissions: option(
    z.boolean(),
    false,
    'Players on duty are in the ACE principals bridge.onduty, bridge.<slug> and bridge.<slug>.<rankId>',
    TRUE_OR_FALSE,
  ),
  ResumeWindowMs: option(
    milliseconds(0, 600_000),
    0,
    'How long a shift stays open at the panel after its game crashed or timed out, for the player to come back to',
    inMilliseconds(0, 600_000),
  ),
  RestartNotice: option(
    z.boolean(),
    true,
    "Tell players on duty 5 minutes and 1 minute before txAdmin's scheduled restart that their shift ends then",
    TRUE_OR_FALSE,
  ),
  Locale: localeShape,
} as const;

type Leaf = z.ZodMiniType;
type Shape = { readonly [key: string]: Leaf | Shape };
type Resolved<S extends Shape> = {
  -readonly [K in keyof S]: S[K] extends Leaf ? z.output<S[K]> : S[K] extends Shape ? Resolved<S[K]> : never;
};

export type BridgeConfig = Resolved<typeof configShape>;
export type ConfigShape = Shape;
