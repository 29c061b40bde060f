// Config.Metrics end to end: Prometheus scrapes /bridge/metrics through FXServer's HTTP handler in the simulator,
// and the figures agree with `bridge status` as players go on duty and the panel answers 429.
import parsePrometheusTextFormat, {
  type PrometheusFamily,
  type PrometheusHistogramSample,
  type PrometheusSample,
} from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import type { DutyOutcome } from '../../shared/events.js';
import type { SimHttpResponse, SimPlayer } from '../../sim/index.js';
import { ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, TOKEN, type World } from './support/world.js';

const METRICS_TOKEN = 'e2e-metrics-token-0b7d4e19';

describe('the metrics endpoint in the simulator', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const scrape = (authorization?: string, path = '/bridge/metrics', method = 'GET'): Promise<SimHttpResponse> =>
    world.sim.resolve(world.sim.http({ path, method, headers: authorization ? { Authorization: authorization } : {} }));

  async function metrics(): Promise<Map<string, PrometheusFamily>> {
    const answer = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return new Map(parsePrometheusTextFormat(answer.body).map((family) => [family.name, family]));
  }

  const value = (families: Map<string, PrometheusFamily>, name: string, labels?: Record<string, string>) => {
    const samples = (families.get(name)?.metrics ?? []) as PrometheusSample[];
    const sample = samples.find((s) => JSON.stringify(s.labels ?? {}) === JSON.stringify(labels ?? {}));
    return sample === undefined ? undefined : Number(sample.value);
  };

  /** `sent N, 429s M` of the `bridge status` console command. */
  function statusCounts(): { sent: number; rateLimited: number } {
    const before = world.sim.console.length;
    world.sim.command('bridge status');
    const line = world.sim.console
      .slice(before)
      .map((l) => l.text)
      .find((text) => text.includes('429s'));
    const match = /sent (\d+), 429s (\d+)/.exec(line ?? '');
    expect(match, 'the queues line of bridge status').not.toBeNull();
    return { sent: Number(match?.[1]), rateLimited: Number(match?.[2]) };
  }

  async function goOnDuty(player: SimPlayer): Promise<DutyOutcome> {
    const outcomes: DutyOutcome[] = [];
    bridgeOf(player).GetDutyOptions().departments[0]?.setActive();
    bridgeOf(player).UpdatePlayerDuty(true, (outcome) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length > 0, 10_000, 'the duty outcome');
    await world.sim.settle();
    return outcomes[0] as DutyOutcome;
  }

  it('refuses a scrape without the metrics token, or with the panel token, and serves only GET /metrics', async () => {
    world = await startWorld({ config: 'Config.Metrics = true', moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    const missing = await scrape();
    expect(missing.status).toBe(401);
    expect(missing.headers['WWW-Authenticate']).toBe('Bearer realm="bridge metrics"');
    expect(missing.body).not.toContain('bridge_');
    const panelToken = await scrape(`Bearer ${TOKEN}`);
    expect(panelToken.status).toBe(401);
    expect(panelToken.headers['WWW-Authenticate']).toContain('error="invalid_token"');
    expect((await scrape(`Bearer ${METRICS_TOKEN}`, '/bridge/status')).status).toBe(404);
    expect(await scrape(`Bearer ${METRICS_TOKEN}`, '/bridge/metrics', 'POST')).toMatchObject({
      status: 405,
      headers: { Allow: 'GET, HEAD' },
    });
    // Header names arrive as the client wrote them; the bridge reads them in any case.
    const lowerCase = await world.sim.resolve(
      world.sim.http({ path: '/bridge/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
    );
    expect(lowerCase.status).toBe(200);
  });

  it('counts the players on duty per department, the requests and the latency as `bridge status` does', async () => {
    world = await startWorld({ config: 'Config.Metrics = true', moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    const before = await metrics();
    expect(value(before, 'bridge_panel_configured')).toBe(1);
    expect(value(before, 'bridge_players_online')).toBe(0);
    expect(before.get('bridge_players_on_duty')?.metrics).toEqual([]);

    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    expect(await goOnDuty(alex)).toMatchObject({ ok: true, onDuty: true });
    expect(await goOnDuty(jamie)).toMatchObject({ ok: true, onDuty: true });

    const after = await metrics();
    const { sent, rateLimited } = statusCounts();
    expect(value(after, 'bridge_players_online')).toBe(2);
    expect(value(after, 'bridge_players_on_duty', { department: 'lspd' })).toBe(1);
    expect(value(after, 'bridge_players_on_duty', { department: 'safr' })).toBe(1);
    expect(sent).toBeGreaterThan(0);
    expect(value(after, 'bridge_panel_requests_sent_total')).toBe(sent);
    expect(value(after, 'bridge_panel_rate_limited_total')).toBe(rateLimited);
    expect(after.get('bridge_panel_requests_sent_total')?.type).toBe('COUNTER');
    expect(value(after, 'bridge_outbox_calls')).toBe(0);
    expect(value(after, 'bridge_panel_circuit_open')).toBe(0);
    expect(value(after, 'bridge_panel_queue_length', { class: 'duty' })).toBe(0);
    const latency = after.get('bridge_panel_latency_seconds');
    expect(latency?.type).toBe('HISTOGRAM');
    const histogram = latency?.metrics[0] as PrometheusHistogramSample;
    // Every request sent was answered: each is one observation, and +Inf holds them all.
    expect(Number(histogram.count)).toBe(sent);
    expect(Number(histogram.buckets['+Inf'])).toBe(sent);
  });

  it('keeps every department it has seen at 0 once nobody is on duty there, and always has the total', async () => {
    world = await startWorld({ config: 'Config.Metrics = true', moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    expect(value(await metrics(), 'bridge_players_on_duty_all_departments')).toBe(0);

    // Alex's profile names LSPD and BCSO: both are seen before anyone goes on duty.
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const joined = await metrics();
    expect(value(joined, 'bridge_players_on_duty', { department: 'lspd' })).toBe(0);
    expect(value(joined, 'bridge_players_on_duty', { department: 'bcso' })).toBe(0);
    expect(value(joined, 'bridge_players_on_duty_all_departments')).toBe(0);

    expect(await goOnDuty(alex)).toMatchObject({ ok: true, onDuty: true });
    const onDuty = await metrics();
    expect(value(onDuty, 'bridge_players_on_duty', { department: 'lspd' })).toBe(1);
    expect(value(onDuty, 'bridge_players_on_duty', { department: 'bcso' })).toBe(0);
    expect(value(onDuty, 'bridge_players_on_duty_all_departments')).toBe(1);

    // The LSPD drops to none when its only officer leaves: an alert on `< 1` must see a 0, not nothing.
    alex.drop();
    await world.sim.until(() => world.sim.players.length === 0, 10_000, 'Alex gone');
    await world.sim.settle();
    const left = await metrics();
    expect(value(left, 'bridge_players_on_duty', { department: 'lspd' })).toBe(0);
    expect(value(left, 'bridge_players_on_duty', { department: 'bcso' })).toBe(0);
    expect(value(left, 'bridge_players_on_duty_all_departments')).toBe(0);
    expect(left.get('bridge_players_on_duty_all_departments')?.type).toBe('GAUGE');
  });

  it('counts a 429 the panel answered, and the budget the bridge then holds back', async () => {
    world = await startWorld({ config: 'Config.Metrics = true', moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    world.panel.controls.injectErrors({ error: 'rate_limited' });
    const joined = world.sim.join({ name: 'Alex Mercer', identifiers: [`chat:${TWO_DEPARTMENTS}`] });
    await world.sim.until(
      () => world.panel.controls.requests().some((request) => request.status === 429),
      10_000,
      'a 429 from the panel',
    );
    await world.sim.settle();
    const during = await metrics();
    expect(value(during, 'bridge_panel_rate_limited_total')).toBeGreaterThanOrEqual(1);
    expect(value(during, 'bridge_panel_rate_limited_total')).toBe(statusCounts().rateLimited);
    expect(value(during, 'bridge_panel_budget_blocked')).toBe(1);
    world.panel.controls.clearFaults();
    await world.sim.resolve(joined, 10_000);
  });

  it('says at start where the metrics are, with the real path and the convar of the token, unmasked', async () => {
    world = await startWorld({ config: 'Config.Metrics = true', moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    expect(world.sim.console.map((line) => line.text).filter((text) => text.includes('metrics:'))).toEqual([
      'INFO: metrics: Prometheus metrics at /bridge/metrics (bearer token from bridge_metrics_token)',
    ]);
  });

  it('answers HEAD wherever it answers GET, without a body, and /metrics/ as /metrics', async () => {
    world = await startWorld({ config: 'Config.Metrics = true', moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    const bearer = `Bearer ${METRICS_TOKEN}`;
    for (const path of ['/bridge/metrics', '/bridge/metrics/', '/bridge/metrics/?x=1']) {
      const get = await scrape(bearer, path);
      expect(get.status, path).toBe(200);
      expect(get.body, path).toContain('bridge_players_online 0');
      const head = await scrape(bearer, path, 'HEAD');
      expect(head, path).toMatchObject({ status: 200, headers: get.headers, body: '' });
      expect(await scrape(undefined, path, 'HEAD'), path).toMatchObject({
        status: 401,
        headers: { 'WWW-Authenticate': 'Bearer realm="bridge metrics"' },
        body: '',
      });
    }
    expect(await scrape(bearer, '/bridge/metrics/', 'POST')).toMatchObject({
      status: 405,
      headers: { Allow: 'GET, HEAD' },
    });
    expect(await scrape(bearer, '/bridge/status', 'HEAD')).toMatchObject({ status: 404, body: '' });
  });

  it("stays off with one ERROR naming bridge_metrics_token for a token with spaces (the README's old example)", async () => {
    const withSpaces = 'a long random string, not the panel token';
    world = await startWorld({ config: 'Config.Metrics = true', moreConvars: { bridge_metrics_token: withSpaces } });
    const errors = world.sim.console.filter((line) => line.text.startsWith('ERROR'));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.text).toContain('bridge_metrics_token');
    expect(errors[0]?.text).toMatch(/space/);
    expect(world.consoleText()).not.toContain('Prometheus metrics at');
    expect(await scrape(`Bearer ${withSpaces}`)).toMatchObject({ status: 404, body: 'Not found.' });
  });

  it('stays off with a clear console error when the metrics token convar is missing', async () => {
    world = await startWorld({ config: 'Config.Metrics = true' });
    const errors = world.sim.console.filter((line) => line.text.includes('bridge_metrics_token is not set'));
    expect(errors).toHaveLength(1);
    expect((await scrape(`Bearer ${METRICS_TOKEN}`)).status).toBe(404);
  });

  it('is not served unless Config.Metrics is on', async () => {
    world = await startWorld({ moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    expect(await scrape(`Bearer ${METRICS_TOKEN}`)).toMatchObject({ status: 404, body: 'Not found.' });
  });
});
