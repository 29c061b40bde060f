// dist/metrics.cjs and dist/integrations.cjs are optional parts of the bridge, as dist/redis.cjs is: dist/server.js
// loads each with FXServer's `require` only when config.lua turns its feature on
// (server/kernel/optional-module.ts), and a missing or damaged file costs that feature only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { LSPD, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import type { StubExports } from '../server/integrations/support/sim-integrations.js';
import { STUB_RESOURCES } from '../server/integrations/support/stub-resources.js';
import { changeDuty } from './support/bridge-exports.js';
import { bridgeFolder } from './support/community.js';
import { startWorld, type World } from './support/world.js';

const METRICS_TOKEN = 'e2e-metrics-token-0b7d4e19';
const METRICS_FILES = ['metrics.cjs', 'metrics.cjs.map'];
const INTEGRATIONS_FILES = ['integrations.cjs', 'integrations.cjs.map'];

let world: World | undefined;
let folder: { dir: string; remove: () => void } | undefined;
afterEach(async () => {
  world?.sim.assertNoErrors();
  await world?.close();
  folder?.remove();
  world = undefined;
  folder = undefined;
});

const errors = (of: World) => of.sim.console.map((line) => line.text).filter((text) => text.startsWith('ERROR'));

const scrapeMetrics = (of: World) =>
  of.sim.resolve(of.sim.http({ path: '/bridge/metrics', headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }));

/** Alex joins, goes on duty in LSPD and off again: the bridge's own work, whatever optional part is missing. */
async function dutyWorks(of: World): Promise<SimPlayer> {
  const alex = await of.join(TWO_DEPARTMENTS, 'Alex Mercer');
  expect(await changeDuty(of.sim, alex, true)).toMatchObject({ ok: true });
  expect(of.eventArgs('bridge:server:playerOnDuty')).toEqual([[alex.id, LSPD.id, LSPD.sergeant, false]]);
  expect(await changeDuty(of.sim, alex, false)).toMatchObject({ ok: true });
  expect(of.eventArgs('bridge:server:playerOffDuty')).toHaveLength(1);
  return alex;
}

describe('without Config.Metrics and Config.Integrations', () => {
  it('dist/metrics.cjs and dist/integrations.cjs are never loaded: an install without them serves its players, with no error', async () => {
    folder = bridgeFolder({ without: [...METRICS_FILES, ...INTEGRATIONS_FILES] });
    world = await startWorld({ bridgeDir: folder.dir, moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    await dutyWorks(world);
    expect(errors(world)).toEqual([]);
  });
});

describe('with the feature on and its file missing from the install', () => {
  it('Config.Metrics: one ERROR naming it, the file and "reinstall the resource"; no endpoint, and the bridge runs on', async () => {
    folder = bridgeFolder({ config: 'Config.Metrics = true', without: METRICS_FILES });
    world = await startWorld({ bridgeDir: folder.dir, moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    expect(errors(world)).toEqual([
      expect.stringMatching(
        /^ERROR: Config\.Metrics is on but \.\/dist\/metrics\.cjs could not be loaded \(Cannot find module '\.\/dist\/metrics\.cjs'\); reinstall the resource\. The metrics endpoint stays off\.$/,
      ),
    ]);
    expect(await scrapeMetrics(world)).toMatchObject({ status: 404 });
    await dutyWorks(world);
    expect(errors(world)).toHaveLength(1);
  });

  it('Config.Integrations: one ERROR naming the framework, the file and "reinstall the resource"; duty works, the framework is left alone', async () => {
    folder = bridgeFolder({ config: "Config.Integrations.JobFramework = 'qbcore'", without: INTEGRATIONS_FILES });
    world = await startWorld({ bridgeDir: folder.dir, resources: [STUB_RESOURCES.qbcore] });
    expect(errors(world)).toEqual([
      expect.stringMatching(
        /^ERROR: Config\.Integrations\.JobFramework is 'qbcore' but \.\/dist\/integrations\.cjs could not be loaded \(Cannot find module .*\); reinstall the resource\. The job framework and rcore_police integrations stay off\.$/,
      ),
    ]);
    const stub = () => world?.sim.exports['qb-core'] as Omit<StubExports, 'calls'> & { calls(): unknown[] };
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    stub().loadPlayer(alex.id, 'QBC00001');
    const loaded = stub().calls().length;
    expect(await changeDuty(world.sim, alex, true)).toMatchObject({ ok: true });
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([[alex.id, LSPD.id, LSPD.sergeant, false]]);
    expect(stub().calls().slice(loaded)).toEqual([]);
    expect(errors(world)).toHaveLength(1);
  });
});

describe('with the feature on and its file damaged', () => {
  it("a file that is not the bridge's: one ERROR saying so, and the bridge runs on without the feature", async () => {
    folder = bridgeFolder({ config: 'Config.Metrics = true' });
    writeFileSync(join(folder.dir, 'dist', 'metrics.cjs'), 'module.exports = { start() {} };\n');
    world = await startWorld({ bridgeDir: folder.dir, moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    expect(errors(world)).toEqual([
      "ERROR: Config.Metrics is on but ./dist/metrics.cjs is not the bridge's: it has no startMetrics(); reinstall the resource. The metrics endpoint stays off.",
    ]);
    expect(await scrapeMetrics(world)).toMatchObject({ status: 404 });
    await dutyWorks(world);
  });

  it('a file cut to nothing in the copy (0 bytes): one ERROR saying the file is empty, and the bridge runs on', async () => {
    folder = bridgeFolder({ config: 'Config.Metrics = true' });
    writeFileSync(join(folder.dir, 'dist', 'metrics.cjs'), '');
    world = await startWorld({ bridgeDir: folder.dir, moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    expect(errors(world)).toEqual([
      'ERROR: Config.Metrics is on but ./dist/metrics.cjs is empty (0 bytes); reinstall the resource. The metrics endpoint stays off.',
    ]);
    expect(await scrapeMetrics(world)).toMatchObject({ status: 404 });
    await dutyWorks(world);
  });

  it('a file that does not parse (cut short in the copy): one ERROR naming the feature, and the bridge runs on', async () => {
    folder = bridgeFolder({ config: 'Config.Integrations.RcorePolice = true' });
    writeFileSync(join(folder.dir, 'dist', 'integrations.cjs'), '"use strict";var a=Object.defineProperty;var b=(');
    world = await startWorld({ bridgeDir: folder.dir });
    expect(errors(world)).toEqual([
      expect.stringMatching(
        /^ERROR: Config\.Integrations\.RcorePolice is on but \.\/dist\/integrations\.cjs could not be loaded \(Unexpected end of input\); reinstall the resource\. The job framework and rcore_police integrations stay off\.$/,
      ),
    ]);
    await dutyWorks(world);
  });
});
