import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { luaMenuOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

const STUB_OX_LIB = { dir: join(import.meta.dirname, 'fixtures', 'stub_ox_lib'), name: 'ox_lib' };

type OxNotification = { title: string; description: string; type: string };

const feed = (player: SimPlayer) => player.notifications.map((n) => n.text);
const oxLibNotifications = (player: SimPlayer) =>
  (player.exports.ox_lib as { notified: () => OxNotification[] }).notified();

describe("the player's messages in game", () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  async function goOnDuty(player: SimPlayer) {
    const before = world.eventArgs('bridge:client:deptData', player).length;
    expect(luaMenuOf(player).goOnDuty(1)).toBe(true);
    await world.sim.until(() => world.eventArgs('bridge:client:deptData', player).length > before, 10_000, 'deptData');
    await world.sim.settle();
  }

  async function goOffDuty(player: SimPlayer) {
    expect(luaMenuOf(player).goOffDuty()).toBe(true);
    await world.sim.until(() => world.eventArgs('bridge:client:offDuty', player).length > 0, 10_000, 'offDuty');
    await world.sim.settle();
  }

  it('are ox_lib notifications while ox_lib is started, and feed notifications once it stopped', async () => {
    world = await startWorld({ resources: [STUB_OX_LIB] });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await goOnDuty(alex);
    expect(oxLibNotifications(alex)).toEqual([
      { title: 'Duty', description: 'You are now on duty: Los Santos Police Department, Sergeant.', type: 'success' },
    ]);
    expect(feed(alex)).toEqual([]);

    await world.sim.stopResource('ox_lib');
    await world.sim.settle();
    await goOffDuty(alex);
    expect(feed(alex)).toEqual(['You are now off duty.']);
  });

  it("stay in the feed with Config.Notifications = 'feed', even with ox_lib started", async () => {
    world = await startWorld({ resources: [STUB_OX_LIB], config: "Config.Notifications = 'feed'" });
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    await goOnDuty(jamie);
    expect(oxLibNotifications(jamie)).toEqual([]);
    expect(feed(jamie)).toEqual(['You are now on duty: San Andreas Fire Rescue, Captain.']);
  });

  it("use the owner's Config.Locale texts; an unusable one is named in the console and stays English", async () => {
    world = await startWorld({
      config: [
        'Config.Locale = {',
        "  on_duty = 'Dienst begonnen: {department}',",
        "  off_duty = 'Dienst beendet: {abteilung}',",
        "  dutyrefresh_help = 'Abteilungen und Ränge neu laden',",
        '}',
      ].join('\n'),
    });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await goOnDuty(alex);
    await goOffDuty(alex);
    expect(feed(alex)).toEqual(['Dienst begonnen: Los Santos Police Department', 'You are now off duty.']);
    expect(alex.chat.suggestions.get('/dutyrefresh')).toMatchObject({ help: 'Abteilungen und Ränge neu laden' });
    const warnings = world.sim.console.filter((line) => line.text.includes('Locale.'));
    expect(warnings.map((line) => line.text)).toEqual([
      expect.stringContaining(
        "config.lua: Locale.off_duty = 'Dienst beendet: {abteilung}' is not valid (off_duty has no placeholder {abteilung}",
      ),
    ]);
  });
});
