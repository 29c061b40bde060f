import { describe, expect, it } from 'vitest';
import { BCSO, LSPD, ONE_DEPARTMENT, SAFR, TWO_DEPARTMENTS } from '../../../../bench/support/demo-users.js';
import { seededRandom } from '../../../../mock-panel/store/seeded-random.js';
import { DUTY_STATE_BAG_KEY, INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../../shared/events.js';
import { connect, type RunningBridge, startBridge, useMockPanel } from '../../support/bridge-harness.js';
import { elapse, settle } from '../../support/virtual-runtime.js';

const mock = useMockPanel();

/** Casey Novak: LSPD member without a rank role (mock-panel/data/default.json). */
const MEMBER_WITHOUT_RANK_ROLE = '562018374659201837';

const ACCOUNTS = [
  { chatId: TWO_DEPARTMENTS, name: 'Alex Mercer', departments: [LSPD.id, BCSO.id] },
  { chatId: ONE_DEPARTMENT, name: 'Jamie Rivera', departments: [SAFR.id] },
  { chatId: MEMBER_WITHOUT_RANK_ROLE, name: 'Casey Novak', departments: [LSPD.id] },
] as const;
type Account = (typeof ACCOUNTS)[number];

const STORMS = 10;
const STEPS = 14;
/** Panel answers from instant to close to RequestTimeoutMs (5 s), as a panel under load does. */
const LATENCIES = [0, 0, 800, 2_500, 4_000];

/**
 * A reconnect storm: players going on and off duty, games crashing and reconnecting under a new server id (often
 * while a duty call is still on its way), second sessions of the same chat account, and a panel whose speed
 * changes, each choice drawn from `seed`. Returns what does not agree once everything settled; empty when the
 * game and the panel agree about every chat account.
 */
async function runStorm(running: RunningBridge, seed: number): Promise<string[]> {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const live = new Map<number, Account>();
  /** Where in the recorded local events each session dropped: no playerOnDuty of theirs may follow. */
  const droppedAt = new Map<number, number>();
  let nextSrc = 1;
  let nextRequest = 1;
  let license = 0;

  const join = async (account: Account) => {
    const src = nextSrc++;
    live.set(src, account);
    await connect(running, src, {
      name: account.name,
      identifiers: [`license:${(license++).toString(16).padStart(12, '0')}`, `chat:${account.chatId}`],
    });
    return src;
  };
  const sessionsOf = (account: Account) => [...live].filter(([, of]) => of === account).map(([src]) => src);

  for (let step = 0; step < STEPS; step++) {
    const account = pick(ACCOUNTS);
    const sessions = sessionsOf(account);
    const src = sessions.length > 0 ? pick(sessions) : await join(account);
    const action = pick(['on', 'on', 'off', 'crash', 'crash', 'second', 'latency'] as const);
    if (action === 'on') running.port.requestDuty(src, nextRequest++, true, pick(account.departments));
    if (action === 'off') running.port.requestDuty(src, nextRequest++, false, null);
    if (action === 'crash') {
      live.delete(src);
      droppedAt.set(src, running.port.localEvents.length);
      running.port.drop(src, 'Game crashed');
      if (random() < 0.7) {
        await elapse(Math.floor(random() * 2_000));
        const again = await join(account);
        if (random() < 0.8) running.port.requestDuty(again, nextRequest++, true, pick(account.departments));
      }
    }
    if (action === 'second' && sessions.length < 2) await join(account);
    if (action === 'latency') mock.panel.controls.setLatency(pick(LATENCIES));
    await elapse(Math.floor(random() * 2_500));
  }
  mock.panel.controls.clearFaults();
  await elapse(5 * 60_000);
  await settle();

  const problems: string[] = [];
  for (const account of ACCOUNTS) {
    const onDuty = sessionsOf(account).filter((src) => running.bridge.duty.state(src).onDuty);
    const open = mock.panel.controls.sessions(account.chatId).filter((session) => session.endedAt === null);
    if (onDuty.length > 1) problems.push(`${account.name}: sessions ${onDuty.join(', ')} are all on duty`);
    const inGame = onDuty[0] === undefined ? undefined : running.bridge.duty.state(onDuty[0]);
    const atPanel = open[0];
    if (open.length > 1) problems.push(`${account.name}: ${open.length} open sessions at the panel`);
    if (inGame && (atPanel?.departmentId !== inGame.departmentId || atPanel.rankId !== inGame.rankId)) {
      problems.push(
        `${account.name}: on duty in ${inGame.departmentId} in game, the panel has ${atPanel?.departmentId}`,
      );
    }
    if (!inGame && atPanel)
      problems.push(`${account.name}: off duty in game, on duty in ${atPanel.departmentId} at the panel`);
  }
  for (const [src] of live) {
    const state = running.bridge.duty.state(src).onDuty;
    const exported = (running.port.exported.get('IsPlayerOnDuty') as (src: number) => boolean)(src);
    const bag = (running.port.playerState.get(src)?.get(DUTY_STATE_BAG_KEY) as { onDuty: boolean } | undefined)?.onDuty;
    const client = (running.port.sentTo(src, INTERNAL_EVENTS.dutyState).at(-1)?.[0] as { onDuty: boolean } | undefined)
      ?.onDuty;
    if (exported !== state || bag !== state || (client ?? false) !== state) {
      problems.push(`player ${src}: server ${state}, export ${exported}, state bag ${bag}, client ${client}`);
    }
  }
  running.port.localEvents.forEach(({ event, args }, index) => {
    const at = droppedAt.get(args[0] as number);
    if (event === PUBLIC_EVENTS.playerOnDuty && at !== undefined && index >= at) {
      problems.push(`playerOnDuty fired for player ${String(args[0])} after they dropped`);
    }
  });
  return problems;
}

describe('reconnect storms', () => {
  it.each(Array.from({ length: STORMS }, (_, index) => index + 1))(
    'storm %i: the game and the panel agree about every chat account once it settled',
    async (seed) => {
      const running = await startBridge(mock.panel);
      expect(await runStorm(running, seed)).toEqual([]);
    },
  );
});
