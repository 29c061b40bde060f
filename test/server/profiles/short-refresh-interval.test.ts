import { describe, expect, it } from 'vitest';
import { playerWith, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { connect, startBridge, useMockPanel } from '../support/bridge-harness.js';

const mock = useMockPanel();

const costLines = (lines: readonly string[]) => lines.filter((line) => line.includes('RefreshIntervalMs ='));

describe('a RefreshIntervalMs below a minute, for testers', () => {
  it('is accepted down to 1000 and says at start, once, what it costs per player of the panel budget', async () => {
    const running = await startBridge(mock.panel, { config: { value: { RefreshIntervalMs: 15_000 } } });

    const lines = costLines(running.port.lines);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('WARN');
    expect(lines[0]).toContain('RefreshIntervalMs = 15000 is below 60000');
    // 60 s / 15 s = 4 requests a minute per player; 200 a minute, half of it is 100: the 26th player passes it.
    expect(lines[0]).toContain('up to 4 profile request(s) a minute');
    expect(lines[0]).toContain("of the panel's 200 a minute; 26 players online");
    expect(running.port.lines.filter((line) => line.includes('config.lua'))).toEqual([]);
  });

  it('says it once more, and only once, when the players online could spend more than half the budget', async () => {
    // 1 s: 60 requests a minute per player, against 200 a minute: the second player passes half of it.
    const running = await startBridge(mock.panel, { config: { value: { RefreshIntervalMs: 1_000 } } });
    await connect(running, 1, playerWith(TWO_DEPARTMENTS, 'One'));
    expect(costLines(running.port.lines)).toHaveLength(1);

    for (let src = 2; src <= 5; src++) await connect(running, src, playerWith(TWO_DEPARTMENTS, `Player ${src}`));
    const lines = costLines(running.port.lines);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('2 players online at RefreshIntervalMs = 1000 can cost up to 120 profile requests');
  });

  it('counts the players already online when the resource restarts', async () => {
    const connected = Object.fromEntries(
      [1, 2, 3].map((src) => [src, playerWith(TWO_DEPARTMENTS, `Player ${src}`)] as const),
    );
    const running = await startBridge(mock.panel, { config: { value: { RefreshIntervalMs: 1_000 } }, connected });

    const lines = costLines(running.port.lines);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('3 players online at RefreshIntervalMs = 1000');
  });

  it('says nothing for an interval of a minute or more', async () => {
    const running = await startBridge(mock.panel, { config: { value: { RefreshIntervalMs: 60_000 } } });
    for (let src = 1; src <= 3; src++) await connect(running, src, playerWith(TWO_DEPARTMENTS, `Player ${src}`));
    expect(costLines(running.port.lines)).toEqual([]);
  });
});
