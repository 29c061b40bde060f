// txAdmin as a server under it sees it (sim/txadmin/): its core writes `txaEvent` to the console, the monitor
// resource fires `txAdmin:events:<name>` as a local server event and drops players; FXServer's own drop reasons for
// a crash, a timeout and a quit; and what a resource's timers cost per frame (timer.js).
import { afterEach, describe, expect, it } from 'vitest';
import { manifest, tempResource } from '../../bench/support/sim-fixtures.js';
import { createSim, type Sim, TXADMIN_MONITOR, TxAdmin } from '../../sim/index.js';
import { tokenize } from '../../sim/server/console-line.js';

let sim: Sim | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

/** A Lua resource that records every txAdmin event it hears, with `source` and the resource that fired it. */
const listener = () =>
  tempResource('tx_listener', {
    'fxmanifest.lua': manifest("lua54 'yes'\nserver_script 's.lua'"),
    's.lua': `
      local heard = {}
      for _, name in ipairs({ 'serverShuttingDown', 'scheduledRestart', 'playerKicked', 'playerBanned' }) do
        AddEventHandler('txAdmin:events:' .. name, function(data)
          heard[#heard + 1] = { name = name, data = data, source = source, by = GetInvokingResource() }
        end)
      end
      local drops = {}
      AddEventHandler('playerDropped', function(reason, resource, code)
        drops[#drops + 1] = { player = source, reason = reason, resource = resource, code = code }
      end)
      local stopped = false
      AddEventHandler('onResourceStop', function(name) if name == GetCurrentResourceName() then stopped = true end end)
      exports('Heard', function() return heard end)
      exports('Drops', function() return drops end)
    `,
  });

async function start(): Promise<{ running: Sim; txAdmin: TxAdmin }> {
  const running = await createSim({
    resources: [{ dir: TXADMIN_MONITOR, name: 'monitor' }, listener()],
    clock: 'virtual',
  });
  sim = running;
  return { running, txAdmin: new TxAdmin(running) };
}

describe("the server console's quoting", () => {
  it('reads \\" inside quotes as a quote, as FXServer does with the JSON txAdmin writes', () => {
    expect(tokenize('txaEvent "serverShuttingDown" "{\\"delay\\":5000,\\"author\\":\\"txAdmin\\"}"')).toEqual([
      'txaEvent',
      'serverShuttingDown',
      '{"delay":5000,"author":"txAdmin"}',
    ]);
  });
});

describe("txAdmin's events", () => {
  it('reach other resources as local server events from monitor, with the fields and types txAdmin sends', async () => {
    const { running, txAdmin } = await start();
    txAdmin.scheduledRestart(5);
    txAdmin.shuttingDown({ delay: 5000, message: 'Server restarting (scheduled restart at 06:00).' });
    expect(running.exports.tx_listener.Heard()).toEqual([
      {
        name: 'scheduledRestart',
        data: { secondsRemaining: 300, translatedMessage: 'This server is scheduled to restart in 5 minutes.' },
        source: '',
        by: 'monitor',
      },
      {
        name: 'serverShuttingDown',
        data: { delay: 5000, author: 'txAdmin', message: 'Server restarting (scheduled restart at 06:00).' },
        source: '',
        by: 'monitor',
      },
    ]);
  });

  it('drops every player after the shutdown notice, then the process dies without stopping a resource', async () => {
    const { running, txAdmin } = await start();
    const players = [await running.join(), await running.join()];
    const shutdown = txAdmin.shutdown({ delay: 5000, message: 'Server shutting down (maintenance).' });
    await running.tick(2);
    expect(running.exports.tx_listener.Drops()).toEqual(
      players.map((player) => ({
        player: player.id,
        reason: '[txAdmin] Server shutting down (maintenance).',
        resource: 'monitor',
        code: 1,
      })),
    );
    await expect(running.join()).rejects.toThrow('[txAdmin] Server is shutting down, try again in a few seconds.');
    await shutdown;
    expect(running.eventsNamed('playerDropped')).toHaveLength(2);
    expect(running.eventsNamed('onResourceStop')).toEqual([]);
  });

  it('kicks one player a tick after the event, and everyone for target -1', async () => {
    const { running, txAdmin } = await start();
    const [first, second, third] = [await running.join(), await running.join(), await running.join()];
    txAdmin.kick(first as never, 'afk');
    expect(running.exports.tx_listener.Heard()).toMatchObject([
      { name: 'playerKicked', data: { target: first?.id, author: 'admin', reason: 'afk' } },
    ]);
    expect(first?.connected).toBe(true);
    await running.tick(2);
    expect(first?.connected).toBe(false);
    txAdmin.kick('everyone', 'restarting soon');
    await running.tick(2);
    expect(running.exports.tx_listener.Drops()).toEqual([
      { player: first?.id, reason: '[txAdmin] You have been kicked: afk.', resource: 'monitor', code: 1 },
      ...[second, third].map((player) => ({
        player: player?.id,
        reason: '[txAdmin] All players kicked: restarting soon.',
        resource: 'monitor',
        code: 1,
      })),
    ]);
  });

  it('bans by identifiers: every player with one of them is dropped', async () => {
    const { running, txAdmin } = await start();
    const cheater = await running.join({ identifiers: ['license:aaa', 'discord:1'] });
    const sameLicense = await running.join({ identifiers: ['license:aaa', 'discord:2'] });
    const other = await running.join({ identifiers: ['license:bbb'] });
    txAdmin.ban(cheater, 'aimbot');
    expect(running.exports.tx_listener.Heard()).toMatchObject([
      { name: 'playerBanned', data: { targetNetId: cheater.id, targetIds: ['license:aaa', 'discord:1'] } },
    ]);
    await running.tick(2);
    expect([cheater.connected, sameLicense.connected, other.connected]).toEqual([false, false, true]);
    expect(running.exports.tx_listener.Drops()[0]).toEqual({
      player: cheater.id,
      reason: '[txAdmin] (admin) You have been permanently banned from this server for "aimbot".',
      resource: 'monitor',
      code: 1,
    });
  });

  it('is refused from anyone but the console, as txAdmin refuses it', async () => {
    const { running } = await start();
    const player = await running.join();
    player.command('txaEvent "playerKicked" "{}"');
    await running.settle();
    expect(running.exports.tx_listener.Heard()).toEqual([]);
  });
});

describe("FXServer's drop reasons", () => {
  it('tell a crash, a timeout, a quit and the game menu apart by reason, resource and code', async () => {
    const { running } = await start();
    const [crashed, timedOut, quit, exited, left] = [
      await running.join(),
      await running.join(),
      await running.join(),
      await running.join(),
      await running.join(),
    ];
    crashed?.crash('GTA5.exe!sub_1 (0x10)');
    timedOut?.timeOut(60_010);
    quit?.quit('bye');
    exited?.quit();
    left?.drop();
    expect(running.exports.tx_listener.Drops()).toEqual([
      {
        player: crashed?.id,
        reason: 'Game crashed: GTA5.exe!sub_1 (0x10)',
        resource: '__cfx_internal:client',
        code: 2,
      },
      {
        player: timedOut?.id,
        reason: 'Server->client connection timed out. Last seen 60010 msec ago.',
        resource: '__cfx_internal:server',
        code: 5,
      },
      { player: quit?.id, reason: 'Quit: bye', resource: '__cfx_internal:client', code: 2 },
      { player: exited?.id, reason: 'Exiting', resource: '__cfx_internal:client', code: 2 },
      { player: left?.id, reason: 'Disconnected.', resource: '__cfx_internal:client', code: 2 },
    ]);
  });
});

describe("a resource's timers, as resmon sees them", () => {
  it('count the frames whose tick walked waiting timers, the timers fired and the tickers called', async () => {
    const dir = tempResource('timed', {
      'fxmanifest.lua': manifest("server_script 's.js'"),
      's.js': `
        let handle;
        exports('Wait', (ms) => { handle = setTimeout(() => {}, ms); });
        exports('Cancel', () => clearTimeout(handle));
        exports('Tick', () => { const id = setTick(() => {}); setTimeout(() => clearTick(id), 120); });
      `,
    });
    sim = await createSim({ resources: [dir], clock: 'virtual' });
    await sim.advance(1000);
    expect(sim.scriptTimers('timed')).toEqual({
      ticksWithWork: 0,
      timersFired: 0,
      tickerCalls: 0,
      pendingTimers: 0,
      tickers: 0,
    });
    sim.exports.timed.Wait(60_000);
    await sim.advance(1000);
    // timer.js walks every waiting timer in every frame: 20 frames a second.
    expect(sim.scriptTimers('timed')).toMatchObject({ ticksWithWork: 20, timersFired: 0, pendingTimers: 1 });
    sim.exports.timed.Cancel();
    sim.exports.timed.Tick();
    await sim.advance(1000);
    // The ticker runs in two frames; in the third the timer (timers run first) clears it.
    expect(sim.scriptTimers('timed')).toEqual({
      ticksWithWork: 20 + 3,
      timersFired: 1,
      tickerCalls: 2,
      pendingTimers: 0,
      tickers: 0,
    });
  });
});
