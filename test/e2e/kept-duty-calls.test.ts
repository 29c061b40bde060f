// Issue 12, item 9: one bad outbox record blocks nothing. The bridge starts in the simulator on resource KVP a previous
// run left on disk, with damaged records among its kept duty calls, and sends the others to the mock panel over
// loopback HTTP.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KvpStore } from '../../sim/index.js';
import { BCSO, LSPD, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { changeDuty } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

let world: World | undefined;
let kvpDir: string | undefined;
afterEach(async () => {
  await world?.close();
  if (kvpDir) rmSync(kvpDir, { recursive: true, force: true });
});

const key = (id: number) => `outbox:${String(id).padStart(12, '0')}`;

/** The bridge's resource KVP as the simulator keeps it on disk (sim/server/kvp.ts): one line per string value. */
function keptKvp(values: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-kept-calls-'));
  const lines = Object.entries(values).map(([k, v]) => JSON.stringify({ k, t: 's', v }));
  writeFileSync(join(dir, 'bridge.kvp.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}

const BAD = {
  // The wrong shape: today start-up stops at it, and every kept call behind it is never sent.
  [key(4)]: JSON.stringify({ id: 4, call: { action: 'on' }, createdAt: 1 }),
  [key(5)]: '{"id":5,"call":',
  [key(8)]: JSON.stringify({ id: 8, call: { action: 'off', body: { chatId: 'not-a-chat-id' } }, createdAt: 1 }),
};

describe('duty calls a previous run kept in KVP', () => {
  it('sends every good one in order and sets each bad one aside, told once by its key', async () => {
    kvpDir = keptKvp({
      'outbox-sequence': 'not a number',
      [key(3)]: JSON.stringify({ id: 3, call: { action: 'off', body: { chatId: ONE_DEPARTMENT } }, createdAt: 1 }),
      ...BAD,
      [key(6)]: JSON.stringify({
        id: 6,
        call: { action: 'off', body: { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id } },
        createdAt: 2,
      }),
      // A duty the game had (degraded mode), kept with a name the contract refuses: delivered, then ended.
      [key(7)]: JSON.stringify({
        id: 7,
        call: {
          action: 'on',
          body: { chatId: TWO_DEPARTMENTS, departmentId: BCSO.id, rankId: BCSO.deputy, playerName: 'N'.repeat(256) },
        },
        createdAt: 3,
        appliedInGame: true,
      }),
    });
    world = await startWorld({ clock: 'virtual', kvpDir });
    const { sim, panel } = world;
    const posts = () =>
      panel.controls
        .requests()
        .filter((request) => request.method === 'POST')
        .map((request) => `${request.path} ${request.status}`);
    await sim.until(() => posts().length >= 4, 15_000, 'the kept calls');
    await sim.advance(5_000);

    expect(posts()).toEqual([
      '/api/leo/duty/off 200',
      '/api/leo/duty/off 200',
      '/api/leo/duty/on 200',
      '/api/leo/duty/off 200',
    ]);
    expect(panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: BCSO.id, playerName: 'N'.repeat(255), endedBy: 'off' }),
    ]);
    expect(panel.controls.sessions(ONE_DEPARTMENT)).toEqual([]);
    const warnings = () => sim.console.filter((line) => line.text.includes('WARN')).map((line) => line.text);
    for (const bad of Object.keys(BAD)) {
      expect(warnings().filter((line) => line.includes(bad))).toEqual([expect.stringContaining('set aside as')]);
    }
    expect(warnings().filter((line) => line.includes('outbox-sequence'))).toHaveLength(1);
    expect(world.consoleText()).not.toContain('start-up failed');
    expect(world.consoleText()).not.toContain('not-a-chat-id');
    sim.assertNoErrors();

    // The next start finds nothing left to send or to tell: the bad records wait under outbox-rejected: for an owner.
    const before = { posts: posts().length, lines: sim.console.length };
    await sim.restart();
    await sim.advance(5_000);
    expect(posts()).toHaveLength(before.posts);
    const after = sim.console.slice(before.lines).map((line) => line.text);
    expect(after.filter((line) => line.includes('outbox'))).toEqual([]);
    sim.assertNoErrors();
  }, 60_000);
  it('rebuilds a sequence at the largest safe integer from the kept calls, so a player’s calls keep their own numbers', async () => {
    kvpDir = keptKvp({
      'outbox-sequence': String(Number.MAX_SAFE_INTEGER),
      [key(3)]: JSON.stringify({ id: 3, call: { action: 'off', body: { chatId: ONE_DEPARTMENT } }, createdAt: 1 }),
    });
    world = await startWorld({ clock: 'virtual', kvpDir });
    const { sim, panel } = world;
    const player = await world.join(TWO_DEPARTMENTS);
    expect(await changeDuty(sim, player, true)).toMatchObject({ ok: true, onDuty: true });
    expect(await changeDuty(sim, player, false)).toMatchObject({ ok: true, onDuty: false });
    await sim.advance(5_000);

    expect(panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    const told = sim.console.filter((line) => line.text.includes('outbox-sequence')).map((line) => line.text);
    expect(told).toEqual([
      expect.stringMatching(/WARN: .*outbox-sequence in KVP is not a number the bridge can count on/),
    ]);
    await world.close();
    world = undefined;
    // The kept call was 3: the on and the off were numbered 4 and 5, and nothing of theirs is left behind.
    const kept = new KvpStore(kvpDir);
    expect(kept.get('bridge', 'outbox-sequence')).toMatchObject({ v: '5' });
    expect(kept.keys('bridge', 'outbox:')).toEqual([]);
  }, 60_000);
});
