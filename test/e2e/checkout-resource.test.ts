// The checkout itself is a resource: a developer clones it into resources/, runs `npm run build` and `ensure bridge`.
// Its package.json says "type": "module", and FXServer's `require` is Node's own (sim/js/node-globals.ts makes the
// simulator's the same way), so every optional module must load as CommonJS there too, not only in package/bridge.
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import type { StubExports } from '../server/integrations/support/sim-integrations.js';
import { STUB_RESOURCES } from '../server/integrations/support/stub-resources.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { changeDuty } from './support/bridge-exports.js';
import { REPO_ROOT, startWorld, type World } from './support/world.js';

const METRICS_TOKEN = 'checkout-metrics-token-5d81c0a7e2';
// What a developer's checkout holds but FXServer never reads: installed packages and git's own folder.
const NOT_COPIED = new Set(['node_modules', '.git', 'package']);

/**
 * A copy of the checkout as a developer has it after `npm run build` (its package.json, sources and dist/), without
 * node_modules and .git, with `config` appended to config.lua: the folder FXServer would run.
 */
function checkoutCopy(config: string): { dir: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'bridge-checkout-'));
  const dir = join(root, 'bridge');
  cpSync(REPO_ROOT, dir, {
    recursive: true,
    filter: (from) => !NOT_COPIED.has(relative(REPO_ROOT, from).split(sep)[0] as string),
  });
  appendFileSync(join(dir, 'config.lua'), `\n${config}\n`);
  return { dir, remove: () => rmSync(root, { recursive: true, force: true }) };
}

describe.skipIf(!redisAvailable())('the checkout as the resource, package.json "type": "module" included', () => {
  let world: World | undefined;
  let redis: RedisServer | undefined;
  let folder: { remove: () => void } | undefined;
  afterEach(async () => {
    await world?.close();
    await redis?.stop();
    folder?.remove();
    world = redis = folder = undefined;
  });

  it('every optional module is live: the community on Redis, the metrics endpoint and the job framework', async () => {
    redis = await startRedisServer();
    const copy = checkoutCopy("Config.Metrics = true\nConfig.Integrations.JobFramework = 'qbcore'");
    folder = copy;
    world = await startWorld({
      bridgeDir: copy.dir,
      moreConvars: { BRIDGE_REDIS_URL: redis.url(), bridge_metrics_token: METRICS_TOKEN },
      resources: [STUB_RESOURCES.qbcore],
    });
    const { sim } = world;
    const joinedOrNot = /one of a community on Redis|BRIDGE_REDIS_URL is set but/;
    await sim.until(() => joinedOrNot.test(world?.consoleText() ?? ''), 10_000, 'Redis');
    expect(sim.console.filter((line) => line.text.startsWith('ERROR'))).toEqual([]);
    expect(world.consoleText()).toContain('one of a community on Redis');

    const metrics = await sim.resolve(
      sim.http({ path: '/bridge/metrics', headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }),
    );
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^bridge_panel_configured 1$/m);

    const qbcore = () => sim.exports['qb-core'] as Omit<StubExports, 'calls'> & { calls(): unknown[] };
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    qbcore().loadPlayer(alex.id, 'QBC00001');
    const loaded = qbcore().calls().length;
    expect(await changeDuty(sim, alex, true)).toMatchObject({ ok: true });
    await sim.until(() => qbcore().calls().length >= loaded + 2, 5000, 'the job');
    expect(qbcore().calls().slice(loaded)).toEqual([
      { fn: 'SetJob', src: alex.id, job: 'lspd', grade: 0 },
      { fn: 'SetJobDuty', src: alex.id, onDuty: true },
    ]);
    sim.assertNoErrors();
  });
});
