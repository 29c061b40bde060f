// Secrets (issue 7): the panel token appears nowhere a player, another resource or the console can see it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenProof } from '../../client/token-proof.js';
import { type DutyOutcome, INTERNAL_EVENTS } from '../../shared/events.js';
import { TOKEN_CONVAR } from '../../shared/token-exposure.js';
import type { SimPlayer } from '../../sim/index.js';
import { bridgeOf } from '../e2e/support/bridge-exports.js';
import { REPO_ROOT, startWorld, TOKEN, type World } from '../e2e/support/world.js';
import { ONE_DEPARTMENT, TWO_DEPARTMENTS, UNKNOWN_USER } from '../mock-panel/support/demo-users.js';

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

/** Everything observable outside the server's HTTP headers: every event with its args, state bags, console, UI. */
function observable(world: World, players: SimPlayer[]): Record<string, string> {
  const { sim } = world;
  return {
    events: JSON.stringify(sim.events.map((e) => [e.side, e.name, e.source, e.args])),
    stateBags: JSON.stringify([
      sim.stateBag('global'),
      ...players.flatMap((p) => [sim.stateBag(`player:${p.id}`), p.stateBag(), p.stateBag('global')]),
    ]),
    console: world.consoleText(),
    errors: JSON.stringify(sim.errors),
    notifications: JSON.stringify(players.map((p) => [p.notifications, p.chat.messages])),
  };
}

describe('secrets', () => {
  let world: World | undefined;
  afterEach(async () => {
    world?.sim.assertNoErrors();
    await world?.close();
    world = undefined;
  });

  async function onDuty(player: SimPlayer, on: boolean): Promise<DutyOutcome> {
    const outcomes: DutyOutcome[] = [];
    const options = bridgeOf(player).GetDutyOptions() as { departments: Array<{ setActive: () => void }> };
    options.departments[0]?.setActive();
    bridgeOf(player).UpdatePlayerDuty(on, (outcome) => outcomes.push(outcome));
    await world?.sim.until(() => outcomes.length > 0, 15_000, 'the duty outcome');
    return outcomes[0] as DutyOutcome;
  }

  it('joins, duty changes, panel failures and a drop: the token appears 0 times', async () => {
    world = await startWorld({ config: 'Config.RefreshCooldownMs = 0\nConfig.LogLevel = "debug"' });
    const a = await world.join(TWO_DEPARTMENTS, 'Alex');
    const b = await world.join(ONE_DEPARTMENT, 'Jamie');
    const c = await world.join(UNKNOWN_USER, 'Nobody');
    expect(await onDuty(a, true)).toMatchObject({ ok: true });
    expect(await onDuty(b, true)).toMatchObject({ ok: true });
    world.panel.controls.injectErrors({ error: 'internal_error' });
    b.command('dutyrefresh');
    await world.sim.advance(500);
    world.panel.controls.clearFaults();
    world.panel.controls.setOutage({ mode: 'reset' });
    a.command('dutyrefresh');
    await world.sim.advance(500);
    world.panel.controls.clearFaults();
    expect(await onDuty(a, false)).toMatchObject({ ok: true });
    // Hostile input that echoes the convar name back cannot make the server reveal it.
    c.emitNet('bridge:internal:dutyRequest', 1, true, TOKEN_CONVAR);
    c.emitNet('bridge:internal:ready', TOKEN_CONVAR);
    await world.sim.settle();
    b.drop('left');
    await world.sim.advance(1000);
    await world.sim.settle();

    const seen = observable(world, [a, b, c]);
    const counts = Object.fromEntries(Object.entries(seen).map(([where, text]) => [where, occurrences(text, TOKEN)]));
    console.log(
      `secrets, scenario: token occurrences ${JSON.stringify(counts)} over ${world.sim.events.length} events`,
    );
    expect(Object.values(counts)).toEqual(Object.values(counts).map(() => 0));
    // Not vacuous: the server held the token and used it for these panel calls.
    expect(world.sim.convar(TOKEN_CONVAR)).toBe(TOKEN);
    expect(world.requests().length).toBeGreaterThan(0);
    // Set with `set`, the token is out of the clients' reach: they are asked, none can answer, no alarm.
    expect(world.sim.events.filter((e) => e.name === INTERNAL_EVENTS.tokenCheck)).toHaveLength(3);
    expect(world.sim.events.filter((e) => e.name === INTERNAL_EVENTS.tokenProof)).toHaveLength(0);
    expect(world.consoleText()).not.toContain('is replicated to clients');
  });

  it('a token set with `setr`: the server warns once, and the token still appears 0 times', async () => {
    world = await startWorld({ replicateToken: true });
    const a = await world.join(TWO_DEPARTMENTS, 'Alex');
    const b = await world.join(ONE_DEPARTMENT, 'Jamie');
    // The mistake is real in this world: a client script can read the token.
    expect(a.convar(TOKEN_CONVAR)).toBe(TOKEN);
    await world.sim.until(
      () => world?.consoleText().includes('is replicated to clients') ?? false,
      5_000,
      'the warning',
    );
    await world.sim.settle();

    const warnings = world.sim.console.filter((line) => line.text.includes('is replicated to clients'));
    console.log(`secrets, setr: ${warnings.length} warning: ${warnings[0]?.text}`);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.text).toContain(`${TOKEN_CONVAR} is replicated to clients`);
    expect(world.sim.events.filter((e) => e.name === INTERNAL_EVENTS.tokenProof)).toHaveLength(1);
    const seen = observable(world, [a, b]);
    const counts = Object.fromEntries(Object.entries(seen).map(([where, text]) => [where, occurrences(text, TOKEN)]));
    expect(Object.values(counts)).toEqual(Object.values(counts).map(() => 0));
  });

  it('a client that only claims to read the token raises no alarm', async () => {
    world = await startWorld();
    const a = await world.join(TWO_DEPARTMENTS, 'Alex');
    const [nonce] = world.eventArgs(INTERNAL_EVENTS.tokenCheck, a)[0] ?? [];
    expect(typeof nonce).toBe('string');
    a.emitNet(INTERNAL_EVENTS.tokenProof, nonce, 'f'.repeat(64));
    a.emitNet(INTERNAL_EVENTS.tokenProof, nonce, tokenProof('a guess at the token', String(nonce)));
    a.emitNet(INTERNAL_EVENTS.tokenProof, 'another nonce', tokenProof(TOKEN, 'another nonce'));
    await world.sim.settle();
    expect(world.consoleText()).not.toContain('is replicated to clients');
  });

  it('a wrong token (401): reported, and the token appears 0 times', async () => {
    world = await startWorld({ panel: { token: 'the-panel-has-another-token-42' } });
    const a = await world.join(TWO_DEPARTMENTS, 'Alex');
    a.command('dutyrefresh');
    await world.sim.advance(500);
    expect(world.consoleText()).toContain('refused the API token (401)');
    const seen = observable(world, [a]);
    const counts = Object.fromEntries(Object.entries(seen).map(([where, text]) => [where, occurrences(text, TOKEN)]));
    console.log(`secrets, 401: token occurrences ${JSON.stringify(counts)}`);
    expect(Object.values(counts)).toEqual(Object.values(counts).map(() => 0));
  });

  it('dist/client.js holds no secret and reads one convar, the token’s, only to prove a `setr` mistake', () => {
    const client = readFileSync(join(REPO_ROOT, 'dist', 'client.js'), 'utf8');
    const found = {
      token: occurrences(client, TOKEN),
      tokenConvar: occurrences(client, TOKEN_CONVAR),
      getConvar: (client.match(/GetConvar/g) ?? []).length,
      bearer: (client.match(/Bearer|Authorization/gi) ?? []).length,
    };
    console.log(`secrets, dist/client.js: ${JSON.stringify(found)}`);
    expect(found).toEqual({ token: 0, tokenConvar: 1, getConvar: 1, bearer: 0 });
  });
});
