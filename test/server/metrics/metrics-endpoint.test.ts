import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import parsePrometheusTextFormat, { type PrometheusSample } from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { ALEX, JAMIE, LSPD, SAFR } from '../../../bench/support/demo-users.js';
import type { HttpRequest } from '../../../server/kernel/server-port.js';
import { METRICS_TOKEN_CONVAR } from '../../../server/metrics/metrics-entry.js';
import { REPO_ROOT } from '../../e2e/support/world.js';
import { connect, panelConvars, startBridge, TOKEN, useMockPanel } from '../support/bridge-harness.js';
import { settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();
const METRICS_TOKEN = 'metrics-token-3c8e0f2a9d41';

const scrape = (overrides: Partial<HttpRequest> = {}): HttpRequest => ({
  path: '/metrics',
  method: 'GET',
  headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  ...overrides,
});

const withMetrics = (convars: Record<string, string> = { [METRICS_TOKEN_CONVAR]: METRICS_TOKEN }) => ({
  config: { value: { Metrics: true } },
  convars: panelConvars(convars),
});

const errors = (lines: string[]) => lines.filter((line) => line.includes('ERROR'));

describe('the metrics endpoint', () => {
  it('is off unless Config.Metrics is on, even with a token set', async () => {
    const running = await startBridge(mock.panel, { convars: panelConvars({ [METRICS_TOKEN_CONVAR]: METRICS_TOKEN }) });
    expect(running.port.http(scrape())).toBeUndefined();
  });

  it('stays off with a clear error when Config.Metrics is on and the token convar is missing', async () => {
    const running = await startBridge(mock.panel, withMetrics({}));
    expect(running.port.http(scrape())).toBeUndefined();
    expect(errors(running.port.lines)).toEqual([
      expect.stringContaining(`Config.Metrics is on but the convar ${METRICS_TOKEN_CONVAR} is not set`),
    ]);
  });

  it('stays off when the metrics token is the panel token', async () => {
    const running = await startBridge(mock.panel, withMetrics({ [METRICS_TOKEN_CONVAR]: TOKEN }));
    expect(running.port.http(scrape({ headers: { authorization: `Bearer ${TOKEN}` } }))).toBeUndefined();
    expect(errors(running.port.lines)).toEqual([expect.stringContaining(`${METRICS_TOKEN_CONVAR} is the panel token`)]);
  });

  it.each([
    ['with a space in it', 'a long random string, not the panel token', /has whitespace in it/],
    ['with a tab in it', 'metrics-token-3c8e0f2a\t9d41aa', /has whitespace in it/],
    ['shorter than 24 characters', 'metrics-token-3c8e0f2', /is 21 characters long/],
  ])('stays off with one ERROR naming the convar for a token %s', async (_case, token, why) => {
    const running = await startBridge(mock.panel, withMetrics({ [METRICS_TOKEN_CONVAR]: token }));
    expect(running.port.http(scrape({ headers: { authorization: `Bearer ${token}` } }))).toBeUndefined();
    const logged = errors(running.port.lines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(METRICS_TOKEN_CONVAR);
    expect(logged[0]).toMatch(why);
    expect(logged[0]).toContain('the metrics endpoint stays off');
    expect(running.port.lines.join('\n')).not.toContain('Prometheus metrics at');
  });

  it.each(['docs/operations.md', 'PACKAGE-README.md'])(
    "serves a scraper set up as %s shows: the token of its server.cfg line, sent as its prometheus.yml's credentials",
    async (readme) => {
      const text = readFileSync(join(REPO_ROOT, readme), 'utf8');
      const convar = [...text.matchAll(/set bridge_metrics_token "([^"]*)"/g)].map((match) => match[1]);
      const credentials = [...text.matchAll(/credentials: ([^\n}]+?)\s*(?:\}|\n)/g)].map((match) => match[1]);
      expect(convar.length, 'the server.cfg line').toBeGreaterThan(0);
      expect(new Set([...convar, ...credentials]), 'one token in both').toEqual(new Set([convar[0]]));
      const token = convar[0] as string;
      const running = await startBridge(mock.panel, withMetrics({ [METRICS_TOKEN_CONVAR]: token }));
      expect(errors(running.port.lines)).toEqual([]);
      expect(running.port.http(scrape({ headers: { authorization: `Bearer ${credentials[0]}` } }))?.status).toBe(200);
    },
  );

  it('refuses a scrape without the token, or with another one (the panel token too), with the Bearer challenge', async () => {
    const { port } = await startBridge(mock.panel, withMetrics());
    const missing = port.http(scrape({ headers: {} }));
    expect(missing).toMatchObject({ status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="bridge metrics"' } });
    expect(missing?.body).not.toContain('bridge_');
    for (const authorization of [`Bearer ${TOKEN}`, `Bearer ${METRICS_TOKEN}x`, `Basic ${METRICS_TOKEN}`, 'Bearer']) {
      const answer = port.http(scrape({ headers: { authorization } }));
      expect(answer?.status, authorization).toBe(401);
      expect(answer?.headers['WWW-Authenticate'], authorization).toMatch(/^Bearer realm="bridge metrics"/);
    }
  });

  it('answers 404 for any other path and 405 with Allow for another method', async () => {
    const { port } = await startBridge(mock.panel, withMetrics());
    expect(port.http(scrape({ path: '/' }))?.status).toBe(404);
    expect(port.http(scrape({ path: '/metrics/extra' }))?.status).toBe(404);
    expect(port.http(scrape({ path: '/metrics//' }))?.status).toBe(404);
    expect(port.http(scrape({ path: '/status' }))?.status).toBe(404);
    expect(port.http(scrape({ method: 'POST' }))).toMatchObject({ status: 405, headers: { Allow: 'GET, HEAD' } });
    expect(port.http(scrape({ path: '/metrics?x=1' }))?.status).toBe(200);
  });

  it('answers HEAD as GET without a body, at /metrics and /metrics/, with and without the token', async () => {
    const { port } = await startBridge(mock.panel, withMetrics());
    for (const path of ['/metrics', '/metrics/', '/metrics/?x=1']) {
      const get = port.http(scrape({ path }));
      expect(get?.status, path).toBe(200);
      expect(port.http(scrape({ path, method: 'HEAD' })), path).toEqual({ ...get, body: '' });
      const refused = port.http(scrape({ path, headers: {} }));
      expect(refused?.status, path).toBe(401);
      expect(port.http(scrape({ path, method: 'HEAD', headers: {} })), path).toEqual({ ...refused, body: '' });
    }
    expect(port.http(scrape({ path: '/status', method: 'HEAD' }))).toMatchObject({ status: 404, body: '' });
  });

  it('serves what `bridge status` shows, in Prometheus text format, with the players on duty per department', async () => {
    const running = await startBridge(mock.panel, withMetrics());
    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);
    running.port.requestDuty(7, 1, true, LSPD.id);
    running.port.requestDuty(8, 1, true, SAFR.id);
    await settle();

    const answer = running.port.http(scrape());
    expect(answer?.status).toBe(200);
    expect(answer?.headers['Content-Type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const families = new Map(parsePrometheusTextFormat(answer?.body ?? '').map((f) => [f.name, f]));
    const value = (name: string) => (families.get(name)?.metrics[0] as PrometheusSample | undefined)?.value;

    running.port.commands.get('bridge')?.handler(0, ['status']);
    const statusText = running.port.replies.map((r) => r.line).join('\n');
    const sent = /sent (\d+), 429s (\d+)/.exec(statusText);
    expect(Number(sent?.[1])).toBeGreaterThan(0);
    expect(value('bridge_panel_requests_sent_total')).toBe(sent?.[1]);
    expect(value('bridge_panel_rate_limited_total')).toBe('0');
    expect(families.get('bridge_panel_requests_sent_total')?.type).toBe('COUNTER');
    expect(value('bridge_players_online')).toBe('2');
    expect(value('bridge_panel_configured')).toBe('1');
    expect(value('bridge_panel_circuit_open')).toBe('0');
    expect(value('bridge_outbox_calls')).toBe('0');
    expect(families.get('bridge_players_on_duty')?.metrics).toEqual(
      expect.arrayContaining([
        { labels: { department: 'lspd' }, value: '1' },
        { labels: { department: 'safr' }, value: '1' },
      ]),
    );
    const latency = families.get('bridge_panel_latency_seconds');
    expect(latency?.type).toBe('HISTOGRAM');
    expect(latency?.metrics[0]).toMatchObject({ count: sent?.[1] });
  });
});
