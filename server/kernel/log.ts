// The log: levels, "say it once per key", and every secret masked before a line reaches the console.
import type { LogLevel } from '../../shared/config/schema.js';

const SEVERITY: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };
const LABEL: Record<LogLevel, string> = { error: 'ERROR', warn: 'WARN', info: 'INFO', debug: 'DEBUG' };

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  /**
   * Logs `message` only the first time `key` is seen, so a fault that repeats per player is told once. Says whether
   * this call was that first time (whether the line was told, or would have been at a quieter level).
   */
  once(key: string, level: LogLevel, message: string): boolean;
  /** Lets a key that was logged with `once` be logged again (e.g. after the fault went away). */
  forget(key: string): void;
  setLevel(level: LogLevel): void;
  /**
   * The text with every secret masked (any piece of 6+ characters, any Authorization or Bearer value), for lines that
   * reach a console or chat without going through the log.
   */
  redact(text: string): string;
}

export interface LoggerOptions {
  print: (line: string) => void;
  level?: LogLevel;
  /** Values that must never reach the console, not even a piece of 6 or more characters, such as the API token. */
  secrets?: () => readonly string[];
  /** Values that must never reach the console whole, though their pieces are ordinary text (a Redis URL's parts). */
  wholeSecrets?: () => readonly string[];
}

export function createLogger({ print, level = 'info', secrets = () => [], wholeSecrets }: LoggerOptions): Logger {
  let threshold = SEVERITY[level];
  const told = new OncePerKey();

  const redact = createRedactor(secrets, wholeSecrets);

  const log = (at: LogLevel, message: string): void => {
    if (SEVERITY[at] > threshold) return;
    // FXServer names the resource on each line a script prints (`[script:bridge]`): the line need not repeat it.
    print(`${LABEL[at]}: ${redact(message)}`);
  };

  return {
    error: (message) => log('error', message),
    warn: (message) => log('warn', message),
    info: (message) => log('info', message),
    debug: (message) => log('debug', message),
    once(key, at, message) {
      if (!told.first(key)) return false;
      log(at, message);
      return true;
    },
    forget: (key) => {
      told.forget(key);
    },
    setLevel(next) {
      threshold = SEVERITY[next];
    },
    redact,
  };
}

/**
 * Which keys were told already, so a fault that repeats (per player, per call) is told once, until it is forgotten
 * (the fault went away). The logger's `once` uses it; so does a report that forgets its keys together.
 */
export class OncePerKey<K = string> {
  private readonly told = new Set<K>();

  /** True the first time `key` is seen, and marks it; false until it is forgotten. */
  first(key: K): boolean {
    if (this.told.has(key)) return false;
    this.told.add(key);
    return true;
  }

  /** Lets `key` be told again; says whether it had been told. */
  forget(key: K): boolean {
    return this.told.delete(key);
  }

  /** Lets every key be told again; says whether any had been told. */
  forgetAll(): boolean {
    const any = this.told.size > 0;
    this.told.clear();
    return any;
  }
}

/**
 * Masks secrets in text bound for a console, a chat line or a player. Matching the whole token is not enough: an
 * upstream that echoes the request headers in a short body, or a log line that cuts a body short, leaves a piece
 * of it. So three things go: every run of 6 or more characters that is part of a secret (prefix, suffix or middle,
 * wherever the cut fell), and any value after `Authorization` or `Bearer`, however short.
 */

export const MIN_SECRET_FRAGMENT = 6;
const MASK = '***';

// `Authorization: x`, `authorization=x`, `"authorization":"x"`, and the same escaped inside a JSON string.
const AUTHORIZATION_VALUE = /(authorization\\?["']?\s*[:=]\s*\\?["']?)[^"'\\\r\n,;}]+/gi;
// A bearer credential on its own (RFC 6750 b64token), after the header rule so `Bearer ***` is not masked twice.
// The words that follow "bearer" in the bridge's own sentences ("the bearer token from bridge_metrics_token") stay,
// but only as whole words: `Bearer token-9f3c` is a credential that merely starts like one.
const PROSE_AFTER_BEARER = '(?:token|tokens|challenge|credential|credentials|scheme|realm|authentication|auth)';
const BEARER_VALUE = new RegExp(
  `(\\bbearer\\s+)(?!\\*\\*\\*)(?!${PROSE_AFTER_BEARER}(?![A-Za-z0-9\\-._~+/=]))[A-Za-z0-9\\-._~+/]+=*`,
  'gi',
);

/**
 * The substrings of one secret, as a suffix automaton: reading a text through it gives, at every position, the
 * longest piece of the secret ending there, so all pieces of every length are found in one linear pass.
 */
class SecretPieces {
  private readonly next: Array<Map<string, number>> = [new Map()];
  private readonly link: number[] = [-1];
  private readonly length: number[] = [0];

  constructor(secret: string) {
    let last = 0;
    for (const char of secret) last = this.extend(last, char);
  }

  /**
   * [start, end) of every maximal run of `text` of at least `minimum` characters that is a piece of the secret, in
   * order and disjoint.
   */
  runs(text: string, minimum: number): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    let state = 0;
    let matched = 0;
    for (let index = 0; index < text.length; index++) {
      const char = text[index] as string;
      while (state !== 0 && !this.next[state]?.has(char)) {
        state = this.link[state] as number;
        matched = this.length[state] as number;
      }
      const to = this.next[state]?.get(char);
      if (to === undefined) {
        matched = 0;
        continue;
      }
      state = to;
      matched += 1;
      if (matched < minimum) continue;
      // Starts never move back (a shorter match after a suffix link starts later): runs merge in order.
      const start = index + 1 - matched;
      const previous = found[found.length - 1];
      if (previous && start <= previous[1]) previous[1] = index + 1;
      else found.push([start, index + 1]);
    }
    return found;
  }

  private extend(last: number, char: string): number {
    const current = this.addState((this.length[last] as number) + 1);
    let walker = last;
    while (walker !== -1 && !this.next[walker]?.has(char)) {
      this.next[walker]?.set(char, current);
      walker = this.link[walker] as number;
    }
    if (walker === -1) {
      this.link[current] = 0;
      return current;
    }
    const target = this.next[walker]?.get(char) as number;
    if (this.length[walker] === (this.length[target] as number) - 1) {
      this.link[current] = target;
      return current;
    }
    const clone = this.addState((this.length[walker] as number) + 1);
    this.next[clone] = new Map(this.next[target]);
    this.link[clone] = this.link[target] as number;
    while (walker !== -1 && this.next[walker]?.get(char) === target) {
      this.next[walker]?.set(char, clone);
      walker = this.link[walker] as number;
    }
    this.link[target] = clone;
    this.link[current] = clone;
    return current;
  }

  private addState(length: number): number {
    this.next.push(new Map());
    this.link.push(0);
    this.length.push(length);
    return this.length.length - 1;
  }
}

/** `text` with each of the ordered, disjoint `ranges` replaced by one mask. */
function mask(text: string, ranges: Array<[number, number]>): string {
  if (ranges.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of ranges) {
    out += text.slice(from, start) + MASK;
    from = end;
  }
  return out + text.slice(from);
}

export type Redact = (text: string) => string;

/**
 * A redactor for the secrets `secrets()` names at the time of each call (the token can be read again after a
 * convar change); each secret's automaton is built once. `wholeSecrets()` names values masked only where they appear
 * whole: a value made of words and addresses (a Redis URL) would mask `redis:` or `127.0.0.1` in every line if each
 * piece of it were a secret.
 */
export function createRedactor(
  secrets: () => readonly string[],
  wholeSecrets: () => readonly string[] = () => [],
): Redact {
  const built = new Map<string, SecretPieces>();
  const piecesOf = (secret: string): SecretPieces => {
    let pieces = built.get(secret);
    if (!pieces) {
      if (built.size > 8) built.clear();
      pieces = new SecretPieces(secret);
      built.set(secret, pieces);
    }
    return pieces;
  };
  return (text) => {
    let out = text.replace(AUTHORIZATION_VALUE, `$1${MASK}`).replace(BEARER_VALUE, `$1${MASK}`);
    for (const secret of secrets()) {
      if (secret.length === 0) continue;
      // A secret shorter than a fragment is masked whole; a longer one in every piece of 6 or more.
      const minimum = Math.min(secret.length, MIN_SECRET_FRAGMENT);
      out = mask(out, piecesOf(secret).runs(out, minimum));
    }
    // The longest first: a value that holds another is masked as one.
    for (const whole of [...wholeSecrets()].sort((a, b) => b.length - a.length)) {
      if (whole.length > 0) out = out.split(whole).join(MASK);
    }
    return out;
  };
}

/**
 * The text of anything thrown or rejected: an Error's message, anything else as text (a rejected export call carries
 * a string, not an Error). An Error is told by its brand, not by `instanceof`: the optional modules
 * (server/kernel/optional-module.ts) read errors thrown on dist/server.js's side, which may be of another realm.
 */
export const errorText = (error: unknown): string =>
  Object.prototype.toString.call(error) === '[object Error]' ? (error as Error).message : String(error);
