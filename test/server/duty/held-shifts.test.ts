// A shift held after a game crash (Config.ResumeWindowMs) through the running duty service: the model the exports,
// the footprint and the next decisions read holds it while the window runs, and lets it go once it ended.
import { describe, expect, it } from 'vitest';
import { ALEX, LSPD } from '../../../bench/support/demo-users.js';
import { connect, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();
const WINDOW_MS = 60_000;
const CRASH = ['Game crashed: GTA5.exe!sub_1 (0x10)', '__cfx_internal:client', 2] as const;

async function alexHeld() {
  const running = await startBridge(mock.panel, { config: { value: { ResumeWindowMs: WINDOW_MS } } });
  await connect(running, 7, ALEX);
  running.port.requestDuty(7, 1, true, LSPD.id);
  await settle();
  running.port.drop(7, ...CRASH);
  await settle();
  expect(running.bridge.duty.footprint()).toMatchObject({ held: 1, holders: 0 });
  return running;
}

describe('a held shift in the running duty', () => {
  it('is let go once its window ran out: nothing is held, and the panel got its off', async () => {
    const running = await alexHeld();
    await elapse(WINDOW_MS + 1000);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([
      'POST /api/leo/duty/on',
      'POST /api/leo/duty/off',
    ]);
    expect(running.bridge.duty.footprint()).toMatchObject({ held: 0, lanes: 0 });
  });

  it('is let go when the account comes back in another session, which holds it then', async () => {
    const running = await alexHeld();
    await connect(running, 9, ALEX);
    running.bridge.duty.submit({ kind: 'resume', src: 9 });
    await settle();
    expect(running.bridge.duty.state(9)).toMatchObject({ onDuty: true, departmentId: LSPD.id });
    expect(running.bridge.duty.footprint()).toMatchObject({ held: 0, holders: 1 });
    await elapse(WINDOW_MS + 1000);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual(['POST /api/leo/duty/on']);
  });

  it('is let go when another server takes the account, with no off', async () => {
    const running = await alexHeld();
    running.bridge.duty.submit({
      kind: 'takenElsewhere',
      src: 7,
      chatId: ALEX.identifiers[1]?.slice(5) as string,
      reason: 'replaced',
      panelOff: false,
    });
    await settle();
    expect(running.bridge.duty.footprint()).toMatchObject({ held: 0 });
    await elapse(WINDOW_MS + 1000);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual(['POST /api/leo/duty/on']);
  });

  it('is let go when the server goes away, its off kept for the next start', async () => {
    const running = await alexHeld();
    running.bridge.stop();
    expect(running.bridge.duty.footprint()).toMatchObject({ held: 0 });
  });
});
