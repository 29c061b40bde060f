import { type CliOptions, type CliParse, parseCliOptions, USAGE } from '../mock-panel/index.js';
import { REFRESH_INTERVAL_RANGE_MS } from '../shared/config/refresh-interval.js';

const FLAG = '--refresh-interval';

export const PLAYGROUND_USAGE = USAGE.replace('npm run mock-panel', 'npm start').replace(
  '  --help',
  `  ${FLAG} <t>  the bridge's Config.RefreshIntervalMs: 15s, 2m, 1h or milliseconds (15000);
                        from 1s to 24h (default: config.lua's, 5 minutes)
  --help`,
);

export type PlaygroundCliParse = CliParse<CliOptions & { refreshIntervalMs?: number }>;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `15s`, `2m`, `1h`, `500ms` or bare milliseconds (`15000`); undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text.trim());
  const unit = UNIT_MS[match?.[2] ?? 'ms'];
  return match && unit ? Number(match[1]) * unit : undefined;
}

/** The mock panel's flags plus the playground's own; a bad value is a usage error, as for the panel's flags. */
export function parsePlaygroundOptions(argv: readonly string[]): PlaygroundCliParse {
  const rest: string[] = [];
  let interval: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === FLAG) {
      interval = argv[i + 1]?.startsWith('--') ? undefined : argv[i + 1];
      if (interval === undefined) return { kind: 'usage-error', message: `${FLAG} needs a value, like 15s` };
      i++;
    } else if (arg.startsWith(`${FLAG}=`)) interval = arg.slice(FLAG.length + 1);
    else rest.push(arg);
  }
  const parsed = parseCliOptions(rest);
  if (parsed.kind !== 'run' || interval === undefined) return parsed;
  const ms = parseDuration(interval);
  const { min, max } = REFRESH_INTERVAL_RANGE_MS;
  if (ms === undefined || ms < min || ms > max) {
    return {
      kind: 'usage-error',
      message: `${FLAG} must be a duration from 1s to 24h, like 15s, 2m or 15000 (milliseconds); got '${interval}'`,
    };
  }
  return { kind: 'run', options: { ...parsed.options, refreshIntervalMs: ms } };
}
