import { randomBytes } from 'node:crypto';
import { loadMockPanelData, stopSignal } from '../mock-panel/index.js';
import { PLAYGROUND_USAGE, parsePlaygroundOptions } from './cli-options.js';
import { DEMO_PLAYERS, startPlaygroundWithPanel } from './start-playground.js';

// npm start: the built bridge in a simulated FXServer, the mock panel, and the dashboard to drive both.
// Takes the mock panel's options (npm start -- --port 4000) and --refresh-interval; see PLAYGROUND_USAGE.

async function main(): Promise<number> {
  const stopRequested = stopSignal();
  const parsed = parsePlaygroundOptions(process.argv.slice(2));
  const usage = PLAYGROUND_USAGE;
  if (parsed.kind === 'help') {
    console.log(usage);
    return 0;
  }
  if (parsed.kind === 'usage-error') {
    console.error(`playground: ${parsed.message}\n\n${usage}`);
    return 2;
  }
  const { options } = parsed;
  const givenToken = process.env.LEO_API_TOKEN;
  const token = givenToken || randomBytes(24).toString('base64url');
  const running = await startPlaygroundWithPanel({
    token,
    data: loadMockPanelData(options.dataFile),
    guildId: process.env.CHAT_GUILD_ID || undefined,
    rateLimit: options.rateLimit,
    onUnexpectedError: (error) => console.error('mock-panel: unexpected error in a handler:', error),
    port: options.port,
    host: options.host,
    refreshIntervalMs: options.refreshIntervalMs,
  });
  console.log(`bridge playground: the bridge runs in a simulated server against the mock panel at ${running.url}`);
  console.log(`  Dashboard: ${running.url}/`);
  console.log(
    givenToken
      ? '  Token: the value of LEO_API_TOKEN (type it into the page)'
      : `  Token (type it into the page): ${token}`,
  );
  if (options.refreshIntervalMs !== undefined) {
    console.log(
      `  The bridge refreshes a profile after ${options.refreshIntervalMs / 1000} s (Config.RefreshIntervalMs)`,
    );
  }
  console.log(`  ${DEMO_PLAYERS.length} demo players have joined; Ctrl+C stops everything.`);

  await stopRequested;
  await running.close();
  console.log('playground stopped');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('playground:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
