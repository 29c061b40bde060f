// A department the panel renames (same id, same rank) while a player is on duty in it, in the simulator against the
// mock panel's PATCH /__mock/departments/:id: after the next refresh everything that shows the duty has the new slug,
// with no call to the panel, and the player's own job still comes back at the end.
import { join } from 'node:path';
import parsePrometheusTextFormat, { type PrometheusSample } from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import { LSPD, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import type { StubExports } from '../server/integrations/support/sim-integrations.js';
import { STUB_RESOURCES } from '../server/integrations/support/stub-resources.js';
import { changeDuty } from './support/bridge-exports.js';
import { PRINCIPAL_ACES } from './support/supervisors.js';
import { startWorld, type World } from './support/world.js';

const DUTY_PERKS = join(import.meta.dirname, 'fixtures', 'duty_perks');
const INTERVAL_MS = 300_000;
const METRICS_TOKEN = 'e2e-metrics-token-0b7d4e19';
const ALEX_ACCOUNT = `bridge.account.chat:${TWO_DEPARTMENTS}`;
const LAPD_NAME = 'Los Angeles Police Department';

type Esx = Omit<StubExports, 'job'> & { job(src: number): { name: string; grade: number } | null };
interface BridgeServer {
  GetPlayerDuty(src: number): unknown;
  GetOnDutyCount(slug?: string): number;
}

describe('a department the panel renames while a player is on duty in it', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  it('gives principals, counts, state bag, export, metrics and job the new slug, with no call to the panel', async () => {
    world = await startWorld({
      clock: 'virtual',
      config: [
        'Config.AcePermissions = true',
        'Config.Metrics = true',
        "Config.Integrations.JobFramework = 'esx'",
        "Config.Integrations.DepartmentJobs = { lapd = { Job = 'police' } }",
      ].join('\n'),
      moreConvars: { bridge_metrics_token: METRICS_TOKEN },
      aces: PRINCIPAL_ACES,
      resources: [STUB_RESOURCES.esx, DUTY_PERKS],
    });
    const { sim } = world;
    const esx = () => sim.exports.es_extended as unknown as Esx;
    const perks = () => sim.exports.duty_perks as unknown as { allowed(src: number, object: string): boolean };
    const server = () => sim.exports.bridge as unknown as BridgeServer;
    const onDutyMetric = async () => {
      const answer = await sim.resolve(
        sim.http({ path: '/bridge/metrics', method: 'GET', headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }),
      );
      const family = parsePrometheusTextFormat(answer.body).find((f) => f.name === 'bridge_players_on_duty');
      return ((family?.metrics ?? []) as PrometheusSample[]).map((s) => [s.labels?.department, Number(s.value)]);
    };
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    esx().loadPlayer(alex.id, 'char1:0123456789abcdef');
    expect(await changeDuty(sim, alex, true, 0)).toMatchObject({ ok: true, departmentId: LSPD.id });
    expect(sim.principalsOf(alex.id)).toContain('bridge.lspd');
    expect(perks().allowed(alex.id, 'command.spikestrip')).toBe(true);
    expect(esx().job(alex.id)).toMatchObject({ name: 'lspd' });
    const since = (server().GetPlayerDuty(alex.id) as { since: number }).since;

    expect(world.panel.controls.renameDepartment(LSPD.id, { slug: 'lapd', name: LAPD_NAME })).toMatchObject({
      ok: true,
    });
    await sim.advance(INTERVAL_MS + 2_000);
    await sim.until(() => sim.principalsOf(alex.id).includes('bridge.lapd'), 10_000, 'the new principals');
    await sim.settle();

    expect(sim.principalsOf(alex.id)).toEqual([
      ALEX_ACCOUNT,
      'bridge.lapd',
      `bridge.lapd.${LSPD.sergeant}`,
      'bridge.onduty',
    ]);
    // The owner's rule was for bridge.lspd: it no longer applies.
    expect(perks().allowed(alex.id, 'command.spikestrip')).toBe(false);
    expect(sim.stateBag('global')['bridge:onDutyCount']).toEqual({ lapd: 1, total: 1 });
    expect([server().GetOnDutyCount('lapd'), server().GetOnDutyCount('lspd')]).toEqual([1, 0]);
    const duty = { onDuty: true, departmentId: LSPD.id, departmentSlug: 'lapd', rankId: LSPD.sergeant, since };
    expect(server().GetPlayerDuty(alex.id)).toEqual(duty);
    expect(alex.stateBag()['bridge:duty']).toEqual(duty);
    // The player's other department stays at 0; the old slug names no department any more.
    expect(Object.fromEntries(await onDutyMetric())).toEqual({ bcso: 0, lapd: 1 });
    expect(esx().job(alex.id)).toMatchObject({ name: 'police', grade: 0 });
    expect(world.eventArgs('bridge:server:playerDepartmentRenamed')).toEqual([[alex.id, LSPD.id, 'lapd', 'lspd']]);
    expect(world.eventArgs('bridge:server:playerRankChanged')).toEqual([]);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([]);
    expect(world.eventArgs('bridge:client:deptData', alex).at(-1)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, slug: 'lapd', name: LAPD_NAME, rank: expect.anything() }),
    ]);
    expect(world.requests().filter((request) => request.startsWith('POST'))).toEqual(['POST /api/leo/duty/on 200']);

    // The end of the duty takes the new principals and gives the player's own job back.
    expect(await changeDuty(sim, alex, false)).toMatchObject({ ok: true, onDuty: false });
    expect(sim.principalsOf(alex.id)).toEqual([]);
    expect(esx().job(alex.id)).toMatchObject({ name: 'unemployed', grade: 0 });
    expect(sim.stateBag('global')['bridge:onDutyCount']).toEqual({ total: 0 });
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, rankId: LSPD.sergeant, endedBy: 'off' }),
    ]);
  });
});
