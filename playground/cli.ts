import { runPanelCli } from '../mock-panel/index.js';
import { PLAYGROUND_USAGE, parsePlaygroundOptions } from './cli-options.js';
import { DEMO_PLAYERS, startPlaygroundWithPanel } from './start-playground.js';

// npm start: the built bridge in a simulated FXServer, the mock panel, and the dashboard to drive both.
// Takes the mock panel's options (npm start -- --port 4000), --refresh-interval and --servers; see PLAYGROUND_USAGE.

runPanelCli({
  name: 'playground',
  usage: PLAYGROUND_USAGE,
  parse: parsePlaygroundOptions,
  async serve(options, panel, tokenGiven) {
    // What the tester's own resources print is theirs to read here, and so are the server's answers to their --cfg
    // lines (`No such command sett.`); the bridge's lines are on the page.
    const own = new Set(options.resources.map((resource) => resource.name));
    const running = await startPlaygroundWithPanel({
      ...panel,
      port: options.port,
      host: options.host,
      refreshIntervalMs: options.refreshIntervalMs,
      servers: options.servers,
      redis: options.redis,
      resources: options.resources,
      serverCfg: options.serverCfg,
      echo: (line, server) => {
        if (line.resource !== null && !own.has(line.resource)) return;
        console.log(options.servers === 1 ? line.line : `S${server} ${line.line}`);
      },
    });
    const { redis } = running.servers.state();
    if (options.servers === 1) {
      console.log(`bridge playground: the bridge runs in a simulated server against the mock panel at ${running.url}`);
    } else {
      console.log(
        `bridge playground: ${options.servers} simulated servers behind one IP against the mock panel at ${running.url}`,
      );
      console.log(
        redis
          ? `  One community: every bridge names the Redis at ${redis.url} (BRIDGE_REDIS_URL), started for this run`
          : '  No Redis (--no-redis): each bridge believes it is alone, and they share the panel’s limit for that IP',
      );
    }
    console.log(`  Dashboard: ${running.url}/`);
    console.log(
      tokenGiven
        ? '  Token: the value of LEO_API_TOKEN (type it into the page)'
        : `  Token (type it into the page): ${panel.token}`,
    );
    for (const { name, dir } of options.resources) {
      console.log(`  Your resource ${name} (${dir}) runs after the bridge; what it prints shows below`);
    }
    if (options.serverCfg.length > 0) {
      console.log(`  ${options.serverCfg.length} more server.cfg lines from --cfg ran before the resources started`);
    }
    if (options.refreshIntervalMs !== undefined) {
      console.log(
        `  The bridge refreshes a profile after ${options.refreshIntervalMs / 1000} s (Config.RefreshIntervalMs)`,
      );
    }
    console.log(
      options.servers === 1
        ? `  ${DEMO_PLAYERS.length} demo players have joined; Ctrl+C stops everything.`
        : `  ${DEMO_PLAYERS.length} demo players have joined, taking turns between the servers; Ctrl+C stops everything.`,
    );
    return running;
  },
});
