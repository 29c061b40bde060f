// txAdmin warns of a scheduled restart at 30, 15, 10, 5, 4, 3, 2 and 1 minutes before it: the players on duty are
// told twice, in the owner's words, that their shift ends then; config.lua's RestartNotice turns it off.
import { afterEach, describe, expect, it } from 'vitest';
import { population } from '../../bench/support/population.js';
import { type SimPlayer, TXADMIN_MONITOR, TXADMIN_RESTART_WARNINGS, TxAdmin } from '../../sim/index.js';
import { changeDuty } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

const officers = population(2, { memberEvery: 1 });
const NOTICE = 'Neustart in {minutes} Min.: deine Schicht endet dann.';

describe('scheduled restarts', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  async function start(config: string): Promise<{ onDuty: SimPlayer; offDuty: SimPlayer }> {
    world = await startWorld({
      clock: 'virtual',
      panel: { data: officers.data },
      resources: [{ dir: TXADMIN_MONITOR, name: 'monitor' }],
      config: `Config.Locale = { restart_notice = '${NOTICE}' }\n${config}`,
    });
    const [first, second] = officers.members as [(typeof officers.members)[0], (typeof officers.members)[0]];
    const onDuty = await world.join(first.chatId, first.player.name);
    const offDuty = await world.join(second.chatId, second.player.name);
    expect(await changeDuty(world.sim, onDuty, true)).toMatchObject({ ok: true, onDuty: true });
    return { onDuty, offDuty };
  }

  /** txAdmin's warnings from `from` minutes before the restart on, a minute apart; what each player read. */
  async function countDown(players: SimPlayer[], from = 30): Promise<string[][]> {
    const txAdmin = new TxAdmin(world.sim);
    const before = players.map((player) => player.notifications.length);
    for (const minutes of TXADMIN_RESTART_WARNINGS.filter((minutes) => minutes <= from)) {
      txAdmin.scheduledRestart(minutes);
      await world.sim.advance(60_000);
    }
    return players.map((player, index) =>
      player.notifications.slice(before[index]).map((notification) => notification.text),
    );
  }

  it('tells the players on duty at 5 minutes and at 1 minute, once each, in the owner’s words', async () => {
    const { onDuty, offDuty } = await start('');
    expect(await countDown([onDuty, offDuty])).toEqual([
      ['Neustart in 5 Min.: deine Schicht endet dann.', 'Neustart in 1 Min.: deine Schicht endet dann.'],
      [],
    ]);
  });

  it('tells a bridge that started late at the next warning, then at 1 minute', async () => {
    const { onDuty } = await start('');
    expect(await countDown([onDuty], 3)).toEqual([
      ['Neustart in 3 Min.: deine Schicht endet dann.', 'Neustart in 1 Min.: deine Schicht endet dann.'],
    ]);
  });

  it('tells nobody with Config.RestartNotice = false', async () => {
    const { onDuty, offDuty } = await start('Config.RestartNotice = false');
    expect(await countDown([onDuty, offDuty])).toEqual([[], []]);
  });

  it('names the key of a value it cannot read, and tells the players as by default', async () => {
    const { onDuty } = await start("Config.RestartNotice = 'sometimes'");
    expect(world.consoleText()).toContain(
      "config.lua: RestartNotice = 'sometimes' is not valid (must be true or false); using the default true",
    );
    expect(await countDown([onDuty], 1)).toEqual([['Neustart in 1 Min.: deine Schicht endet dann.']]);
  });
});
