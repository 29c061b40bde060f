import { randomBytes } from 'node:crypto';
import type { CliOptions, CliParse } from './cli-options';
import type { MockPanelOptions } from './create-mock-panel';
import { loadMockPanelData } from './data/load';
import { startFailureMessage } from './start-failure';
import { stopSignal } from './stop-signal';

/** A command that serves the mock panel from the mock panel's flags: `npm run mock-panel`, `npm start`. */
export interface PanelCli<Options extends CliOptions> {
  /** Starts each line it prints to stderr, and the last line: `<name> stopped`. */
  name: string;
  usage: string;
  parse(argv: readonly string[]): CliParse<Options>;
  /**
   * Starts serving with the panel the flags and the environment describe, and prints where. The token is
   * LEO_API_TOKEN, or one generated for this run (`tokenGiven` false), which the tester can only learn from the
   * output.
   */
  serve(options: Options, panel: MockPanelOptions, tokenGiven: boolean): Promise<{ close(): Promise<void> }>;
}

/** Runs until SIGINT or SIGTERM, then exits 0; a usage error exits 2, a failure to start 1. */
export function runPanelCli<Options extends CliOptions>(cli: PanelCli<Options>): void {
  serveUntilStopped(cli).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`${cli.name}:`, error);
      process.exit(1);
    },
  );
}

async function serveUntilStopped<Options extends CliOptions>(cli: PanelCli<Options>): Promise<number> {
  const stopRequested = stopSignal();
  const parsed = cli.parse(process.argv.slice(2));
  if (parsed.kind === 'help') {
    console.log(cli.usage);
    return 0;
  }
  if (parsed.kind === 'usage-error') {
    console.error(`${cli.name}: ${parsed.message}\n\n${cli.usage}`);
    return 2;
  }
  const { options } = parsed;
  const givenToken = process.env.LEO_API_TOKEN;
  let running: { close(): Promise<void> };
  try {
    const panel: MockPanelOptions = {
      token: givenToken || randomBytes(24).toString('base64url'),
      data: loadMockPanelData(options.dataFile),
      guildId: process.env.CHAT_GUILD_ID || undefined,
      rateLimit: options.rateLimit,
      onUnexpectedError: (error) => console.error('mock-panel: unexpected error in a handler:', error),
    };
    running = await cli.serve(options, panel, Boolean(givenToken));
  } catch (error) {
    console.error(`${cli.name}: ${startFailureMessage(error)}`);
    return 1;
  }

  await stopRequested;
  await running.close();
  console.log(`${cli.name} stopped`);
  return 0;
}
