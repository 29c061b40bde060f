import { parseArgs } from 'node:util';
import { DEFAULT_DATA_FILE } from './data/load';
import type { StandardHeadersDraft } from './http/rate-limit-headers';
import { MOCK_PANEL_DEFAULT_HOST, MOCK_PANEL_DEFAULT_PORT } from './server/http-server';

export const USAGE = `Usage: npm run mock-panel -- [options]

  --port <n>            port to listen on, 0 for a free one (default ${MOCK_PANEL_DEFAULT_PORT})
  --host <address>      address to bind (default ${MOCK_PANEL_DEFAULT_HOST})
  --data <file>         seed data JSON (default mock-panel/data/default.json)
  --rate-limit <n>      requests per window and client IP (default 200)
  --rate-window <s>     window length in seconds (default 60)
  --rate-headers <h>    draft-6 (default), draft-7 or draft-8
  --help                print this help

Environment: LEO_API_TOKEN (generated and printed when unset), CHAT_GUILD_ID (overrides the data's guildId).`;

export interface CliOptions {
  port: number;
  host: string;
  dataFile: string;
  rateLimit: { limit: number; windowMs: number; standardHeaders: StandardHeadersDraft };
}

export type CliParse<Options extends CliOptions = CliOptions> =
  | { kind: 'run'; options: Options }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

const HEADER_STYLES: readonly StandardHeadersDraft[] = ['draft-6', 'draft-7', 'draft-8'];

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const number = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) throw new RangeError(`--${flag} must be a whole number from ${min} to ${max}`);
  return number;
}

/** Reads the CLI flags; unknown flags and bad values come back as a usage error rather than a throw. */
export function parseCliOptions(argv: readonly string[]): CliParse {
  try {
    const { values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        'rate-limit': { type: 'string' },
        'rate-window': { type: 'string' },
        'rate-headers': { type: 'string' },
        help: { type: 'boolean' },
      },
    });
    if (values.help) return { kind: 'help' };
    const headers = values['rate-headers'] ?? 'draft-6';
    if (!HEADER_STYLES.includes(headers as StandardHeadersDraft)) {
      throw new RangeError(`--rate-headers must be one of ${HEADER_STYLES.join(', ')}`);
    }
    return {
      kind: 'run',
      options: {
        port: values.port === undefined ? MOCK_PANEL_DEFAULT_PORT : wholeNumber('port', values.port, 0, 65_535),
        host: values.host || MOCK_PANEL_DEFAULT_HOST,
        dataFile: values.data || DEFAULT_DATA_FILE,
        rateLimit: {
          limit: wholeNumber('rate-limit', values['rate-limit'] ?? '200', 1, 1_000_000),
          windowMs: wholeNumber('rate-window', values['rate-window'] ?? '60', 1, 86_400) * 1000,
          standardHeaders: headers as StandardHeadersDraft,
        },
      },
    };
  } catch (error) {
    return { kind: 'usage-error', message: (error as Error).message };
  }
}
