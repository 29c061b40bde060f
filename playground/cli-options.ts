import { type CliOptions, type CliParse, parseCliOptions, USAGE } from '../mock-panel/index.js';
import { REFRESH_INTERVAL_RANGE_MS } from '../shared/config/refresh-interval.js';
import { extraCfgLines, type OwnResource, ownResources } from './own-resources.js';

const FLAG = '--refresh-interval';
const SERVERS = '--servers';
const NO_REDIS = '--no-redis';
const RESOURCE = '--resource';
const CFG = '--cfg';
const VALUE_EXAMPLE: Record<string, string> = {
  [FLAG]: '15s',
  [SERVERS]: '2',
  [RESOURCE]: '../my-mdt',
  [CFG]: 'extra.cfg',
};
/** A community of this many simulated servers at most: each is a whole FXServer in this process. */
export const MAX_SERVERS = 4;

export const PLAYGROUND_USAGE = USAGE.replace('npm run mock-panel', 'npm start').replace(
  '  --help',
  `  ${FLAG} <t>  the bridge's Config.RefreshIntervalMs: 15s, 2m, 1h or milliseconds (15000);
                        from 1s to 24h (default: config.lua's, 5 minutes)
  ${SERVERS} <n>         simulated servers behind one IP, from 1 to ${MAX_SERVERS} (default 1); from 2 on they are one
                        community through a Redis the playground starts (redis-server must be installed)
  ${NO_REDIS}            with ${SERVERS}: no Redis, each bridge believes it is alone (as before the community)
  ${RESOURCE} <dir>      a resource folder of yours (Lua or JS, with its fxmanifest.lua), started after the
                        bridge; repeat it for several. What it prints shows here too.
  ${CFG} <file>          more server.cfg lines (set, setr, add_ace, ensure ...), run before the resources start;
                        repeat it for several files
  --help`,
);

export interface PlaygroundCliOptions extends CliOptions {
  refreshIntervalMs?: number;
  /** How many simulated servers share the panel (1: the playground as it always was). */
  servers: number;
  /** With 2 servers or more: whether they share a Redis the playground starts. */
  redis: boolean;
  /** `--resource`: the tester's own resource folders, started after the bridge on every server. */
  resources: OwnResource[];
  /** `--cfg`: more server.cfg lines, run on every server before its resources start. */
  serverCfg: string[];
}

export type PlaygroundCliParse = CliParse<PlaygroundCliOptions>;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `15s`, `2m`, `1h`, `500ms` or bare milliseconds (`15000`); undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text.trim());
  const unit = UNIT_MS[match?.[2] ?? 'ms'];
  return match && unit ? Number(match[1]) * unit : undefined;
}

/**
 * The mock panel's flags plus the playground's own; a bad value is a usage error, as for the panel's flags. Paths
 * are read from `base`: npm runs the script in the repository, and INIT_CWD is where the tester typed the command.
 */
export function parsePlaygroundOptions(
  argv: readonly string[],
  base: string = process.env.INIT_CWD || process.cwd(),
): PlaygroundCliParse {
  const rest: string[] = [];
  const own: Record<string, string | undefined> = {};
  // Both repeat: each --resource is one more folder, each --cfg one more file of lines, in order.
  const repeated: Record<string, string[]> = { [RESOURCE]: [], [CFG]: [] };
  let noRedis = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const flag = [FLAG, SERVERS, RESOURCE, CFG].find((name) => arg === name || arg.startsWith(`${name}=`));
    let value: string | undefined;
    if (arg === NO_REDIS) noRedis = true;
    else if (flag === undefined) rest.push(arg);
    else if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
    else {
      value = argv[i + 1]?.startsWith('--') ? undefined : argv[i + 1];
      if (value === undefined) {
        return { kind: 'usage-error', message: `${flag} needs a value, like ${VALUE_EXAMPLE[flag]}` };
      }
      i++;
    }
    if (flag !== undefined && value !== undefined) {
      if (repeated[flag]) repeated[flag].push(value);
      else own[flag] = value;
    }
  }
  const parsed = parseCliOptions(rest);
  if (parsed.kind !== 'run') return parsed;
  const resources = ownResources(repeated[RESOURCE] ?? [], base);
  if ('error' in resources) return { kind: 'usage-error', message: resources.error };
  const serverCfg: string[] = [];
  for (const file of repeated[CFG] ?? []) {
    const lines = extraCfgLines(file, base);
    if ('error' in lines) return { kind: 'usage-error', message: lines.error };
    serverCfg.push(...lines);
  }
  const options: PlaygroundCliOptions = { ...parsed.options, servers: 1, redis: !noRedis, resources, serverCfg };
  const interval = own[FLAG];
  if (interval !== undefined) {
    const ms = parseDuration(interval);
    const { min, max } = REFRESH_INTERVAL_RANGE_MS;
    if (ms === undefined || ms < min || ms > max) {
      return {
        kind: 'usage-error',
        message: `${FLAG} must be a duration from 1s to 24h, like 15s, 2m or 15000 (milliseconds); got '${interval}'`,
      };
    }
    options.refreshIntervalMs = ms;
  }
  const servers = own[SERVERS];
  if (servers !== undefined) {
    if (!/^[0-9]+$/.test(servers) || Number(servers) < 1 || Number(servers) > MAX_SERVERS) {
      return {
        kind: 'usage-error',
        message: `${SERVERS} must be a whole number from 1 to ${MAX_SERVERS}; got '${servers}'`,
      };
    }
    options.servers = Number(servers);
  }
  if (noRedis && options.servers < 2) {
    return { kind: 'usage-error', message: `${NO_REDIS} goes with ${SERVERS} 2 or more: one server needs no Redis` };
  }
  return { kind: 'run', options };
}
