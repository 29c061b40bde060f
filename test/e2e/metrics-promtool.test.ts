// Issue 26, item 1: the exposition and the shipped alert rules, checked by Prometheus' own promtool (Debian's
// `prometheus` package) rather than by our reading of the format: a real scrape from the simulator passes
// `promtool check metrics`, the rules pass their unit test, and the rules fire on real scrapes when a department
// drops to none.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DutyOutcome } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { NO_PROMTOOL_MESSAGE, promtool, skipWithoutPromtool } from './support/promtool.js';
import { REPO_ROOT, startWorld, type World } from './support/world.js';

const METRICS_TOKEN = 'e2e-promtool-token-6a1f93c0d2b8';
const RULES = join(REPO_ROOT, 'docs', 'prometheus', 'bridge-alerts.yml');
const RULES_TEST = join(REPO_ROOT, 'docs', 'prometheus', 'bridge-alerts.test.yml');
const TARGET = { job: 'fivem-bridge', instance: 'game:30120' };

if (skipWithoutPromtool) console.warn(NO_PROMTOOL_MESSAGE);

/** Each sample line of an exposition, as the series promtool's input takes (with the scrape's job and instance). */
function samples(exposition: string): Map<string, string> {
  const series = new Map<string, string>();
  for (const line of exposition.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const [, name, labels, value] = match;
    const target = `job="${TARGET.job}",instance="${TARGET.instance}"`;
    series.set(`${name}{${labels ? `${labels},` : ''}${target}}`, value as string);
  }
  return series;
}

/** A promtool rule test whose input is `before` for 10 minutes, then `after` for 30 (`_`: the series is absent). */
function ruleTestOf(before: string, after: string, alertRuleTest: string): string {
  const first = samples(before);
  const then = samples(after);
  const names = [...new Set([...first.keys(), ...then.keys()])];
  const input = names.map(
    (name) =>
      `      - series: ${JSON.stringify(name)}\n        values: "${first.get(name) ?? '_'}x9 ${then.get(name) ?? '_'}x30"`,
  );
  return [
    'rule_files:',
    `  - ${JSON.stringify(RULES)}`,
    'evaluation_interval: 1m',
    'tests:',
    '  - interval: 1m',
    '    input_series:',
    ...input,
    '    alert_rule_test:',
    alertRuleTest,
    '',
  ].join('\n');
}

describe.skipIf(skipWithoutPromtool)('the metrics, checked with promtool', () => {
  let world: World | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    world?.sim.assertNoErrors();
    await world?.close();
    world = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function scrape(): Promise<string> {
    const answer = await world?.sim.resolve(
      world.sim.http({ path: '/bridge/metrics', headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }),
    );
    expect(answer?.status).toBe(200);
    return answer?.body ?? '';
  }

  async function goOnDuty(player: SimPlayer): Promise<void> {
    const outcomes: DutyOutcome[] = [];
    bridgeOf(player).GetDutyOptions().departments[0]?.setActive();
    bridgeOf(player).UpdatePlayerDuty(true, (outcome) => outcomes.push(outcome));
    await world?.sim.until(() => outcomes.length > 0, 10_000, 'the duty outcome');
    await world?.sim.settle();
    expect(outcomes[0]).toMatchObject({ ok: true, onDuty: true });
  }

  const start = async () => {
    world = await startWorld({ config: 'Config.Metrics = true', moreConvars: { bridge_metrics_token: METRICS_TOKEN } });
    return world;
  };

  it('passes `promtool check rules` and the rules pass their own unit test, `promtool test rules`', () => {
    const checked = promtool(['check', 'rules', RULES]);
    expect(checked.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(checked.status, checked.output).toBe(0);
    const tested = promtool(['test', 'rules', RULES_TEST]);
    expect(tested.output).toContain('SUCCESS');
    expect(tested.status, tested.output).toBe(0);
  });

  it('serves a scrape that `promtool check metrics` finds clean: at start, and with players on duty', async () => {
    const running = await start();
    const atStart = await scrape();
    const alex = await running.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await running.join(ONE_DEPARTMENT, 'Jamie Rivera');
    await goOnDuty(alex);
    await goOnDuty(jamie);
    const onDuty = await scrape();
    expect(onDuty).toContain('bridge_players_on_duty{department="lspd"} 1');
    expect(onDuty).toContain('bridge_players_on_duty{department="bcso"} 0');
    expect(onDuty).toContain('bridge_panel_latency_seconds_bucket{le="+Inf"}');
    for (const exposition of [atStart, onDuty]) {
      const checked = promtool(['check', 'metrics'], exposition);
      expect(checked, exposition).toEqual({ status: 0, output: '' });
    }
  });

  it('fires the shipped department alert on real scrapes when the LSPD drops to none', async () => {
    const running = await start();
    const alex = await running.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await goOnDuty(alex);
    const before = await scrape();
    alex.drop();
    await running.sim.until(() => running.sim.players.length === 0, 10_000, 'Alex gone');
    await running.sim.settle();
    const after = await scrape();

    dir = mkdtempSync(join(tmpdir(), 'bridge-promtool-'));
    const file = join(dir, 'real-scrapes.test.yml');
    writeFileSync(
      file,
      ruleTestOf(
        before,
        after,
        [
          // Alex alone was below 2 from the start; 30 minutes after he left, the LSPD reads 0 and still fires.
          '      - eval_time: 39m',
          '        alertname: BridgeDepartmentUnderstaffed',
          '        exp_alerts:',
          '          - exp_labels:',
          '              severity: info',
          `              job: ${TARGET.job}`,
          `              instance: ${JSON.stringify(TARGET.instance)}`,
          '              department: lspd',
          '            exp_annotations:',
          `              summary: "0 on duty in lspd on ${TARGET.instance}"`,
          // Nobody online after he left: an empty server is no alert.
          '      - eval_time: 39m',
          '        alertname: BridgeNobodyOnDuty',
          '        exp_alerts: []',
        ].join('\n'),
      ),
    );
    const tested = promtool(['test', 'rules', file]);
    expect(tested.status, tested.output).toBe(0);
    expect(tested.output).toContain('SUCCESS');
  });
});
