import { describe, expect, it } from 'vitest';
import { ALEX, JAMIE, LSPD, playerWith, UNKNOWN_USER } from '../../../bench/support/demo-users.js';
import { FakeServerPort } from '../../../bench/support/fake-server-port.js';
import { startBridgeServer } from '../../../server/edge/bridge-server.js';
import { API_BASE_CONVAR, TOKEN_CONVAR } from '../../../server/kernel/settings.js';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import {
  connect,
  PANEL_URL,
  PROBE_PATH,
  panelConvars,
  startBridge,
  TOKEN,
  useMockPanel,
} from '../support/bridge-harness.js';
import { createVirtualRuntime, elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const errors = (port: FakeServerPort) => port.lines.filter((line) => line.includes('ERROR'));
const warnings = (port: FakeServerPort) => port.lines.filter((line) => line.includes('WARN'));

describe.each([
  [API_BASE_CONVAR, { [API_BASE_CONVAR]: '' }],
  [TOKEN_CONVAR, { [TOKEN_CONVAR]: '' }],
])('without %s', (convar, overrides) => {
  it('prints one clear error naming the convar with the set line for server.cfg, and makes no request', async () => {
    const running = await startBridge(mock.panel, { convars: panelConvars(overrides) });

    const naming = errors(running.port).filter((line) => line.includes(convar));
    expect(naming).toHaveLength(1);
    expect(naming[0]).toContain(`set ${convar} "`);
    expect(mock.panel.controls.requests()).toEqual([]);
  });

  it('stays up but inert: profiles and duty requests are answered not_configured, nothing throws', async () => {
    const running = await startBridge(mock.panel, { convars: panelConvars(overrides) });

    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    running.port.requestDuty(7, 2, false, null);
    running.port.requestRefresh(7);
    await settle();
    running.port.drop(7);
    await settle();

    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)[0]).toEqual([
      expect.objectContaining({ ok: false, error: 'not_configured' }),
    ]);
    expect(running.dutyResults(7)).toEqual([
      [1, expect.objectContaining({ ok: false, error: 'not_configured' })],
      [2, expect.objectContaining({ ok: false, error: 'not_configured' })],
    ]);
    expect(running.port.linesWith('failed')).toEqual([]);
    expect(mock.panel.controls.requests()).toEqual([]);
    running.bridge.stop();
  });
});

describe('configuration problems at start', () => {
  it('names both convars when neither is set', async () => {
    const running = await startBridge(mock.panel, { convars: {} });

    expect(errors(running.port).filter((line) => line.includes(`set ${API_BASE_CONVAR} "`))).toHaveLength(1);
    expect(errors(running.port).filter((line) => line.includes(`set ${TOKEN_CONVAR} "`))).toHaveLength(1);
  });

  it('warns once that an http:// base URL on a public host sends the token unencrypted', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    expect(warnings(running.port)).toEqual([
      expect.stringMatching(/BRIDGE_API_BASE uses http:\/\/ on a public host.*https/),
    ]);
  });

  it('tells the owner the panel answers and accepts the token after one probe request', async () => {
    const running = await startBridge(mock.panel);

    expect(mock.panel.controls.requests().map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      `GET ${PROBE_PATH} 404`,
    ]);
    expect(running.port.linesWith(`the panel at ${PANEL_URL} answers and accepts the API token`)).toHaveLength(1);
  });

  it('reports a wrong token (401) once, however many players join', async () => {
    const running = await startBridge(mock.panel, { convars: panelConvars({ [TOKEN_CONVAR]: 'not-the-token' }) });
    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);
    await connect(running, 9, playerWith(UNKNOWN_USER));

    const told = running.port.lines.filter((line) => line.includes('401'));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/ERROR: .*BRIDGE_LEO_API_TOKEN must equal LEO_API_TOKEN/);
    for (const src of [7, 8, 9]) {
      expect(running.port.sentTo(src, PUBLIC_EVENTS.profile)).toEqual([
        [expect.objectContaining({ ok: false, error: 'unauthorized' })],
      ]);
    }
  });

  it('warns when the panel does not answer the probe, and keeps going', async () => {
    mock.panel.controls.setOutage({ mode: 'reset' });
    const running = await startBridge(mock.panel);

    expect(running.port.linesWith('did not answer properly')).toHaveLength(1);
    mock.panel.controls.clearFaults();
    await connect(running, 7, ALEX);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([[expect.objectContaining({ ok: true })]]);
  });
});

describe('config.lua', () => {
  it('reports each bad or unknown key by name and uses the default for it', async () => {
    const running = await startBridge(mock.panel, {
      config: {
        value: {
          RequestTimeoutMs: 100,
          RefreshCooldownMs: 'soon',
          Integrations: { JobFramework: 'vrp', Extra: 1 },
          RefreshIntervalMS: 60_000,
        },
      },
    });

    const configLines = running.port.linesWith('config.lua:');
    expect(configLines).toEqual([
      expect.stringMatching(/WARN: config\.lua: RequestTimeoutMs = 100 is not valid .*default 5000/),
      expect.stringMatching(/WARN: config\.lua: RefreshCooldownMs = 'soon' is not valid .*default 30000/),
      expect.stringMatching(/WARN: config\.lua: Integrations\.JobFramework = 'vrp' is not valid .*default false/),
      expect.stringMatching(/WARN: config\.lua: Integrations\.Extra is not a known option/),
      expect.stringMatching(/WARN: config\.lua: RefreshIntervalMS is not a known option/),
    ]);

    // The default timeout (5000 ms), not 100 ms, applies: a 1 s answer is still taken.
    mock.panel.controls.setLatency(1_000);
    await connect(running, 7, ALEX);
    await elapse(1_000);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([[expect.objectContaining({ ok: true })]]);
  });

  it('uses a valid RequestTimeoutMs for every panel request', async () => {
    const running = await startBridge(mock.panel, { config: { value: { RequestTimeoutMs: 1_000 } } });
    mock.panel.controls.setLatency(1_500);

    await connect(running, 7, ALEX);
    await elapse(999);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([]);
    await elapse(1);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [expect.objectContaining({ error: 'panel_unavailable' })],
    ]);
  });

  it('says so when config.lua could not be read, and runs on the defaults', async () => {
    const running = await startBridge(mock.panel, { config: { error: 'No such export GetConfig in resource bridge' } });

    expect(running.port.linesWith('config.lua could not be read (No such export GetConfig')).toHaveLength(1);
    await connect(running, 7, ALEX);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([[expect.objectContaining({ ok: true })]]);
  });

  it('accepts an empty table from Lua (sent as an empty array) without complaint', async () => {
    const running = await startBridge(mock.panel, { config: { value: [] } });

    expect(running.port.linesWith('config.lua')).toEqual([]);
  });
});

describe('the API token', () => {
  it('never appears in a printed line, through failures, retries and debug logging', async () => {
    const running = await startBridge(mock.panel, { config: { value: { LogLevel: 'debug' } } });
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    mock.panel.controls.setOutage({ mode: 'reset' });
    running.port.requestDuty(7, 2, false, null);
    running.port.requestRefresh(7);
    await elapse(5_000);
    mock.panel.controls.setMalformed({ mode: 'html' });
    mock.panel.controls.clearFaults('outage');
    await connect(running, 8, JAMIE);
    await elapse(60_000);
    running.port.drop(7);
    running.bridge.stop();

    expect(running.port.lines.length).toBeGreaterThan(5);
    expect(running.port.lines.filter((line) => line.includes(TOKEN))).toEqual([]);
  });

  it('is not printed when it was pasted into BRIDGE_API_BASE by mistake', async () => {
    const port = new FakeServerPort({
      convars: { [API_BASE_CONVAR]: `panel.example.com/api/leo?token=${TOKEN}`, [TOKEN_CONVAR]: TOKEN },
    });
    startBridgeServer(port, createVirtualRuntime()).stop();

    expect(errors(port).filter((line) => line.includes(API_BASE_CONVAR)).length).toBeGreaterThan(0);
    expect(port.lines.filter((line) => line.includes(TOKEN))).toEqual([]);
  });

  it('is not printed when a base URL with it fails to parse', async () => {
    const port = new FakeServerPort({
      convars: { [API_BASE_CONVAR]: `https://panel example.com/${TOKEN}`, [TOKEN_CONVAR]: TOKEN },
    });
    startBridgeServer(port, createVirtualRuntime()).stop();

    expect(port.lines.filter((line) => line.includes(TOKEN))).toEqual([]);
  });
});
