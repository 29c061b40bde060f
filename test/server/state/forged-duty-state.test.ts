// A client may write its own player bag unless the owner set sv_stateBagStrictMode (issue 12, item 3). The bridge owns
// `bridge:duty` and puts its own value back after any write it did not make.
import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, LSPD, NO_DEPARTMENTS, playerWith } from '../../../bench/support/demo-users.js';
import { DUTY_STATE_BAG_KEY } from '../../../shared/events.js';
import { connect, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();
const CIVILIAN = playerWith(NO_DEPARTMENTS, 'Casey Civilian');
const OFF = { onDuty: false, departmentId: null, departmentSlug: null, rankId: null, since: null };
const forgedOnDuty = { onDuty: true, departmentId: LSPD.id, departmentSlug: 'lspd', rankId: LSPD.lieutenant, since: 1 };

describe('a forged bridge:duty on a player’s state bag', () => {
  it('is replaced by the bridge’s off-duty value once the forged write has been stored', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 5, CIVILIAN);
    const duty = () => running.port.playerState.get(5)?.get(DUTY_STATE_BAG_KEY);
    expect(duty()).toEqual(OFF);

    running.port.writePlayerState(5, DUTY_STATE_BAG_KEY, forgedOnDuty);
    expect(duty()).toEqual(forgedOnDuty); // handlers cannot refuse a set: it is stored first
    await elapse(0);
    expect(duty()).toEqual(OFF);
  });

  it('gives an officer who writes off duty or another department their real duty back, and deletes nothing', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    const duty = () => running.port.playerState.get(7)?.get(DUTY_STATE_BAG_KEY);
    const real = duty();
    expect(real).toMatchObject({ onDuty: true, departmentId: LSPD.id, rankId: LSPD.sergeant });

    for (const forged of [OFF, { ...forgedOnDuty, departmentId: BCSO.id, rankId: BCSO.deputy }, null, 'on duty']) {
      running.port.writePlayerState(7, DUTY_STATE_BAG_KEY, forged);
      await elapse(0);
      expect(duty()).toEqual(real);
    }
    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: true, departmentId: LSPD.id });
  });

  it('logs one WARN per player naming the player, and restores once per tick, however often they write', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 5, CIVILIAN);
    await connect(running, 7, ALEX);
    const restores: unknown[] = [];
    running.port.playerStateWrites([DUTY_STATE_BAG_KEY]).subscribe(({ src, value }) => {
      if (src === 5 && (value as { onDuty?: boolean }).onDuty === false) restores.push(value);
    });
    for (let i = 0; i < 200; i++) {
      running.port.writePlayerState(5, DUTY_STATE_BAG_KEY, { ...forgedOnDuty, since: i });
      if (i % 20 === 0) await elapse(0);
    }
    running.port.writePlayerState(7, DUTY_STATE_BAG_KEY, forgedOnDuty);
    await elapse(0);

    const warnings = running.port.linesWith(DUTY_STATE_BAG_KEY);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/WARN.*player 5\b.*sv_stateBagStrictMode/);
    expect(warnings[1]).toMatch(/WARN.*player 7\b/);
    expect(running.port.playerState.get(5)?.get(DUTY_STATE_BAG_KEY)).toEqual(OFF);
    // One restore per tick that had forged writes, not one per write.
    expect(restores).toHaveLength(11); // 10 ticks inside the loop, 1 after it
  });

  it('never answers its own publications: going on and off duty sets the bag once per change', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    const sets: unknown[] = [];
    running.port.playerStateWrites([DUTY_STATE_BAG_KEY]).subscribe(({ value }) => sets.push(value));
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    running.port.requestDuty(7, 2, false, null);
    await settle();
    await elapse(1000);
    expect(sets).toEqual([expect.objectContaining({ onDuty: true }), OFF]);
    expect(running.port.linesWith(DUTY_STATE_BAG_KEY)).toEqual([]);
  });

  it('puts a forged write back even when the player’s duty changes before the next tick, to the new duty', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    running.port.writePlayerState(7, DUTY_STATE_BAG_KEY, OFF);
    running.port.requestDuty(7, 2, false, null);
    await settle();
    await elapse(0);
    expect(running.port.playerState.get(7)?.get(DUTY_STATE_BAG_KEY)).toEqual(OFF);
    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: false });
  });

  it('deletes the key on a bag the bridge never published to, and forgets a player who left', async () => {
    const running = await startBridge(mock.panel);
    running.port.writePlayerState(42, DUTY_STATE_BAG_KEY, forgedOnDuty);
    await elapse(0);
    expect(running.port.playerState.get(42)?.has(DUTY_STATE_BAG_KEY)).toBe(false);

    await connect(running, 5, CIVILIAN);
    running.port.writePlayerState(5, DUTY_STATE_BAG_KEY, forgedOnDuty);
    running.port.drop(5);
    await settle();
    // The bag is gone with the player in FiveM; nothing is set on it after the drop.
    running.port.playerState.delete(5);
    await elapse(0);
    expect(running.port.playerState.has(5)).toBe(false);
  });
});
