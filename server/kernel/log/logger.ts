import type { LogLevel } from '../../../shared/config/schema.js';
import { OncePerKey } from './once-per-key.js';
import { createRedactor } from './redaction.js';

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
