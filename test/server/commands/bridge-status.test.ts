import { describe, expect, it } from 'vitest';
import { ALEX, JAMIE, LSPD, playerWith } from '../../../bench/support/demo-users.js';
import { API_BASE_CONVAR } from '../../../server/kernel/settings.js';
import { connect, PANEL_URL, panelConvars, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

describe('the bridge console command', () => {
  it('is registered as a restricted command, bridge, so only the console and granted admins run it (as /dutykick)', async () => {
    const running = await startBridge(mock.panel);
    expect([...running.port.commands.entries()].map(([name, { restricted }]) => [name, restricted])).toEqual([
      ['bridge', true],
      ['dutykick', true],
    ]);
  });

  it.each([['bridge'], ['bridge help']])('lists its subcommands with a line of help each (%s)', async (line) => {
    const running = await startBridge(mock.panel);
    const help = running.port.runCommand(line);
    expect(help[0]).toBe('usage: bridge <subcommand>');
    expect(help.find((text) => text.trim().startsWith('status'))).toMatch(/budget/);
    expect(help.find((text) => text.trim().startsWith('help'))).toBeDefined();
  });

  it("lines up the help's summaries in one column, however long a subcommand's usage is", async () => {
    const running = await startBridge(mock.panel);
    const rows = running.port.runCommand('bridge help').slice(1);
    expect(rows.map((row) => row.trim().split(' ')[0])).toEqual(['status', 'refresh', 'offduty', 'help']);
    // Each row: two spaces, the subcommand and its arguments, at least two spaces, the summary.
    const columns = rows.map((row) => {
      const summary = /^ {2}\S.*? {2,}(\S.*)$/.exec(row)?.[1];
      return summary === undefined ? -1 : row.length - summary.length;
    });
    expect(new Set(columns), rows.join('\n')).toEqual(new Set([columns[0]]));
    expect(columns[0]).toBeGreaterThan(0);
  });

  it.each([
    ['refresh', 'usage: bridge refresh <player id|all>'],
    ['offduty', 'usage: bridge offduty <player id>'],
  ])('prints the usage of `bridge %s` given no argument, and calls nobody', async (name, usage) => {
    const running = await startBridge(mock.panel);
    const before = running.calls().length;
    const answer = running.port.runCommand(`bridge ${name}`);
    expect(answer[0]).toBe(usage);
    expect(answer).toHaveLength(2);
    expect(answer[1]).toMatch(/^ {2}\S/);
    await settle();
    expect(running.calls()).toHaveLength(before);
  });

  it('names an unknown subcommand and shows the list', async () => {
    const running = await startBridge(mock.panel);
    const answer = running.port.runCommand('bridge stauts');
    expect(answer[0]).toBe('unknown subcommand "stauts"');
    expect(answer).toContain('usage: bridge <subcommand>');
  });

  it('answers a player who runs it in their chat, not in the console', async () => {
    const running = await startBridge(mock.panel);
    running.port.runCommand('bridge status', 7);
    expect(running.port.replies.every((reply) => reply.src === 7)).toBe(true);
  });
});

describe('bridge status', () => {
  it('shows the panel, its latency, the budget, the queues, the outbox, the cache and who is on duty', async () => {
    const running = await startBridge(mock.panel);
    mock.panel.controls.setLatency(120);
    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);
    await elapse(120);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await elapse(10_000);

    const status = running.port.runCommand('bridge status').join('\n');
    expect(status).toMatch(new RegExp(`panel +reachable at ${PANEL_URL}, last answer \\d+ s ago; latency last 120 ms`));
    // The probe, two profiles and the on: 4 of the panel's 200, its window opened by the probe 10 s ago.
    expect(status).toMatch(
      /budget +196 of 200 requests left, window resets in 50 s; limit 200 per 60 s from the panel's headers/,
    );
    expect(status).toMatch(
      /queues +duty 0, waiting 0, join 0, member-refresh 0, other-refresh 0; in flight 0; sent 4, 429s 0/,
    );
    expect(status).toMatch(/outbox +0 duty call\(s\) pending/);
    expect(status).toMatch(/cache +2 profile\(s\)/);
    expect(status).toMatch(/players +2 online, 1 on duty/);
  });

  it('shows an unreachable panel, when it will be asked again, and the calls waiting for it', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    mock.panel.controls.setOutage({ mode: 'reset' });
    running.port.requestDuty(7, 2, false, null);
    for (const [src, chatId] of [
      [20, '700000000000000001'],
      [21, '700000000000000002'],
    ] as const) {
      running.port.join(src, playerWith(chatId));
    }
    await elapse(30_000);

    const status = running.port.runCommand('bridge status').join('\n');
    expect(status).toMatch(
      /panel +UNREACHABLE at http:\/\/panel\.test for \d+ s \(last failure: the panel cannot be reached/,
    );
    expect(status).toMatch(/next probe in \d+ s; going on duty meanwhile: refused/);
    expect(status).toMatch(/outbox +1 duty call\(s\) pending \(1 waiting for the panel\), oldest 30 s old/);
  });

  it('shows the budget blocked after a 429 the bridge could not foresee', async () => {
    const panel = mock.replace({ rateLimit: { limit: 3, windowMs: 60_000 } });
    const running = await startBridge(panel);
    // Another script on the server spends the window.
    for (let i = 0; i < 2; i++) await fetch(`${PANEL_URL}/api/leo/user/${'1'.repeat(18)}/departments`);
    await connect(running, 7, ALEX);

    const status = running.port.runCommand('bridge status').join('\n');
    expect(status).toMatch(/nothing is sent for 60 s \(the panel answered 429\)/);
    expect(status).toMatch(/join 1/);
    expect(status).toMatch(/429s 1/);
  });

  it('without BRIDGE_REDIS_URL: one community line, saying this server runs alone', async () => {
    const running = await startBridge(mock.panel);
    expect(running.port.runCommand('bridge status')).toContain(
      'community none: BRIDGE_REDIS_URL is not set; this server runs alone',
    );
  });

  it('with BRIDGE_REDIS_URL but no community module (dist/redis.cjs missing): the line says so', async () => {
    const running = await startBridge(mock.panel, {
      convars: panelConvars({ BRIDGE_REDIS_URL: 'redis://127.0.0.1:6379/0' }),
    });
    expect(running.port.runCommand('bridge status')).toContain(
      "community none: BRIDGE_REDIS_URL is set but the community's module did not start (the ERROR at start says why); this server runs alone",
    );
  });

  it('says the bridge is not configured when the convars are missing', async () => {
    const running = await startBridge(mock.panel, { convars: panelConvars({ [API_BASE_CONVAR]: '' }) });
    expect(running.port.runCommand('bridge status')).toEqual([
      'bridge status',
      'panel     not configured: set BRIDGE_API_BASE and BRIDGE_LEO_API_TOKEN in server.cfg',
      'cache     0 profile(s)',
      'players   0 online, 0 on duty',
    ]);
  });
});
