import { randomBytes } from 'node:crypto';
import { parseCliOptions, USAGE } from './cli-options';
import { createMockPanel } from './create-mock-panel';
import { loadMockPanelData } from './data/load';
import { startMockPanelServer } from './server/http-server';
import { stopSignal } from './stop-signal';

// npm run mock-panel -- --port P --host H --data FILE   (see USAGE)

async function main(): Promise<number> {
  const stopRequested = stopSignal();
  const parsed = parseCliOptions(process.argv.slice(2));
  if (parsed.kind === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (parsed.kind === 'usage-error') {
    console.error(`mock-panel: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  const { options } = parsed;
  const givenToken = process.env.LEO_API_TOKEN;
  const token = givenToken || randomBytes(24).toString('base64url');

  let server: Awaited<ReturnType<typeof startMockPanelServer>>;
  try {
    const panel = createMockPanel({
      token,
      data: loadMockPanelData(options.dataFile),
      guildId: process.env.CHAT_GUILD_ID || undefined,
      rateLimit: options.rateLimit,
      onUnexpectedError: (error) => console.error('mock-panel: unexpected error in a handler:', error),
    });
    server = await startMockPanelServer({ panel, port: options.port, host: options.host });
  } catch (error) {
    console.error(`mock-panel: ${(error as Error).message}`);
    return 1;
  }

  if (!givenToken) console.log(`mock-panel: LEO_API_TOKEN is not set; using generated token ${token}`);
  console.log(`mock-panel listening on ${server.url}`);
  console.log(`Dashboard: ${server.url}/ (type the token into the page)`);
  // The given token is the tester's own secret and stays out of the output; a generated one was printed above.
  const tokenValue = givenToken ? '<the value of LEO_API_TOKEN>' : token;
  console.log('Point a game server at it with these lines in server.cfg:');
  console.log(`  set BRIDGE_API_BASE "${server.url}"`);
  console.log(`  set BRIDGE_LEO_API_TOKEN "${tokenValue}"`);

  await stopRequested;
  await server.close();
  console.log('mock-panel stopped');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('mock-panel:', error);
    process.exit(1);
  },
);
