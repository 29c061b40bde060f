import { parseCliOptions, USAGE } from './cli-options';
import { createMockPanel } from './create-mock-panel';
import { runPanelCli } from './run-panel-cli';
import { startMockPanelServer } from './server/http-server';

// npm run mock-panel -- --port P --host H --data FILE   (see USAGE)

runPanelCli({
  name: 'mock-panel',
  usage: USAGE,
  parse: parseCliOptions,
  async serve(options, panel, tokenGiven) {
    const server = await startMockPanelServer({
      panel: createMockPanel(panel),
      port: options.port,
      host: options.host,
    });
    if (!tokenGiven) console.log(`mock-panel: LEO_API_TOKEN is not set; using generated token ${panel.token}`);
    console.log(`mock-panel listening on ${server.url}`);
    console.log(`Dashboard: ${server.url}/ (type the token into the page)`);
    // The given token is the tester's own secret and stays out of the output; a generated one was printed above.
    const tokenValue = tokenGiven ? '<the value of LEO_API_TOKEN>' : panel.token;
    console.log('Point a game server at it with these lines in server.cfg:');
    console.log(`  set BRIDGE_API_BASE "${server.url}"`);
    console.log(`  set BRIDGE_LEO_API_TOKEN "${tokenValue}"`);
    return server;
  },
});
