// Tick-based timers and Lua threads, on the virtual clock and under vitest's fake timers (fivem-runtime.md §9).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manifest, startFixtures, tempResource } from '../../bench/support/sim-fixtures.js';
import type { Sim } from '../../sim/index.js';

let sim: Sim | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
  vi.useRealTimers();
});

/** What the fixture's probes see over one second of game time, however that second is made to pass. */
async function probe(s: Sim, pass: (ms: number) => Promise<unknown>) {
  const core = s.exports.sim_core;
  const consumer = s.exports.sim_consumer;
  const immediately = { js: core.TimerProbe(), lua: consumer.ThreadProbe() };
  await pass(1000);
  return { immediately, js: core.TimerMarks(), lua: consumer.ThreadMarks() };
}

const expected = {
  immediately: { js: [], lua: [] },
  js: [
    ['timeout0', 50],
    ['immediate', 50],
    ['number clear ignored'],
    ['interval', 150],
    ['interval', 300],
    ['interval', 450],
    ['ticks', 2],
  ],
  lua: ['thread start +50', 'timeout +100', 'thread resumed +250'],
};

describe('timers on the virtual clock', () => {
  it('fire inside 50 ms server frames: setTimeout(f, 0) on the next one, intervals re-arming from the frame', async () => {
    sim = await startFixtures();
    expect(await probe(sim, (ms) => (sim as Sim).advance(ms))).toEqual(expected);
  });

  it('run an hour of game time: server intervals and client Lua waits fire once per elapsed period', async () => {
    const dir = tempResource('hourly', {
      'fxmanifest.lua': manifest("server_script 's.js'\nclient_script 'c.lua'"),
      's.js': 'let n = 0; exports("Count", () => n); setInterval(() => n++, 60000);',
      'c.lua':
        "local n = 0\nexports('Count', function() return n end)\nCreateThread(function() while true do Wait(60000) n = n + 1 end end)",
    });
    sim = await startFixtures({ resources: [dir] });
    const players = await Promise.all([sim.join(), sim.join(), sim.join()]);
    // How fast this runs is the benchmark's business; a wall-clock bound here failed on a loaded machine.
    await sim.advance(60 * 60 * 1000);
    // An interval fires on the first frame *after* it elapsed, so each period drifts by a frame: 3 600 000 / 60 050.
    expect(sim.exports.hourly.Count()).toBe(59);
    expect(players.map((p) => p.exports.hourly.Count())).toEqual([59, 59, 59]);
  });
});

describe('timers under vitest fake timers', () => {
  it('behave exactly as on the virtual clock when the test drives time with advanceTimersByTimeAsync', async () => {
    vi.useFakeTimers();
    sim = await startFixtures({ clock: 'real' });
    expect(await probe(sim, (ms) => vi.advanceTimersByTimeAsync(ms))).toEqual(expected);
  });

  it('let sim.settle() and sim.resolve() move fake time themselves', async () => {
    vi.useFakeTimers();
    sim = await startFixtures({ clock: 'real' });
    const p = await sim.join();
    p.emitNet('core:ping', 1);
    await sim.settle();
    expect(p.received('core:pong').map((e) => e.args)).toEqual([[2]]);
    expect(await sim.resolve(sim.exports.sim_core.AsyncDouble(4))).toBe(8);
  });
});

describe('timers in real time', () => {
  it('run without any fake timers', async () => {
    sim = await startFixtures({ clock: 'real' });
    const p = await sim.join();
    p.emitNet('core:ping', 1);
    await sim.settle();
    expect(p.received('core:pong')).toHaveLength(1);
  });
});

interface Clocks {
  date: number;
  made: number;
  perf: number;
  origin: number;
  game: number;
  fired: number;
  time: number;
  woke: number;
}

describe("the server machine's wall clock", () => {
  const clockResource = () =>
    tempResource('clocks', {
      'fxmanifest.lua': manifest("server_scripts { 's.js', 's.lua' }\nclient_script 'c.js'"),
      's.js': [
        'let fired = null;',
        'setTimeout(() => { fired = GetGameTimer(); }, 2000);',
        'exports("Js", () => ({ date: Date.now(), made: new Date().getTime(), perf: performance.now(),',
        '  origin: performance.timeOrigin, game: GetGameTimer(), fired }));',
      ].join('\n'),
      's.lua': [
        'local woke = nil',
        'CreateThread(function() Wait(2000) woke = GetGameTimer() end)',
        "exports('Lua', function() return { time = os.time(), year = os.date('!%Y'), woke = woke } end)",
      ].join('\n'),
      'c.js': 'exports("Date", () => Date.now());',
    });

  it.each([
    ['back', -3_600_000],
    ['forward', 3_600_000],
  ])('jumps %s an hour for Date and os.time while timers, GetGameTimer and performance.now run on', async (_, jump) => {
    sim = await startFixtures({ resources: [clockResource()] });
    const player = await sim.join();
    await sim.advance(500);
    const before = sim.exports.clocks.Js() as Clocks;
    const luaBefore = sim.exports.clocks.Lua() as Clocks;
    expect(before.date).toBe(sim.wallNow());
    expect(before.origin + before.perf).toBe(before.date);

    sim.jumpWallClock(jump);
    await sim.advance(2_000);
    const after = sim.exports.clocks.Js() as Clocks;
    const luaAfter = sim.exports.clocks.Lua() as Clocks;

    expect(after.date - before.date).toBe(jump + 2_000);
    expect(after.made).toBe(after.date);
    expect(sim.wallNow() - sim.now()).toBe(jump);
    expect(luaAfter.time - luaBefore.time).toBe((jump + 2_000) / 1000);
    // The monotonic clocks and the timers on them do not notice.
    expect(after.perf - before.perf).toBe(2_000);
    expect(after.game - before.game).toBe(2_000);
    expect(after.fired).toBeGreaterThanOrEqual(2_000);
    expect(after.fired).toBeLessThanOrEqual(2_100);
    expect(luaAfter.woke).toBeGreaterThanOrEqual(2_000);
    expect(luaAfter.woke).toBeLessThanOrEqual(2_100);
    // Only the server machine's clock moved: a client is another machine.
    expect(player.exports.clocks.Date()).toBe(sim.now());
    sim.assertNoErrors();
  });
});
