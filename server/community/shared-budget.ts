import * as z from '../../shared/zod-mini.js';
import type { Logger } from '../kernel/index.js';
import { errorText, LONGEST_WAIT_MS } from '../kernel/index.js';
import type { BudgetGrant, BudgetSnapshot, RateLimitObservation, SharedBudget } from '../panel/index.js';
import { classRank, type RequestClass } from '../panel/index.js';
import type { CommunityLink, ReadShared } from './community.js';
import { setAsideWrongType } from './read-shared.js';
import { SHARED_BUDGET_LUA } from './shared-budget.lua.js';

// One call that fails (a timeout after the server's thread was busy for a moment: the answer was there, the timer
// fired first) is asked again shortly: deciding alone at once would spend what the other servers may be spending.
// Failing again and again, Redis is too slow to help: the scheduler decides alone for a while, then tries again.
const ASK_AGAIN_AFTER_MS = 100;
const FAILURES_BEFORE_ALONE = 3;
const ALONE_AFTER_FAILURE_MS = 5_000;

const ScriptAnswer = z.tuple([z.union([z.literal(0), z.literal(1)]), z.number()], z.number());

export interface SharedBudgetOptions {
  link: CommunityLink;
  readShared: ReadShared;
  now: () => number;
  logger: Logger;
  /** This run of this server (startCommunityRun), for the count of servers sharing the budget. */
  serverId: string;
}

const arg = (value: number | undefined): string | number => (value === undefined ? '' : value);

/** The community's budget in Redis (`<prefix>budget`), changed only by SHARED_BUDGET_LUA. */
export function sharedBudget({ link, readShared, now, logger, serverId }: SharedBudgetOptions): SharedBudget {
  // Each key with the Redis type the script keeps there: a key of another type (another program's) is set aside like
  // every key of ours.
  const types = {
    [`${link.prefix}budget`]: 'hash',
    [`${link.prefix}budget:in-flight`]: 'zset',
    [`${link.prefix}budget:servers`]: 'zset',
    [`${link.prefix}budget:grants`]: 'hash',
  } as const;
  const keys = Object.keys(types);
  // The request id of each ticket granted and not yet answered.
  const requests = new Map<number, string>();
  let asked = 0;
  let servers = 1;
  let aloneUntil = Number.NEGATIVE_INFINITY;
  let failures = 0;
  const run = async (args: Array<string | number>, onTimeout?: () => void) => {
    try {
      const answer = readShared(ScriptAnswer, await link.script(SHARED_BUDGET_LUA, keys, args), keys[0] as string);
      if (answer) {
        failures = 0;
        return answer;
      }
    } catch (error) {
      if (setAsideWrongType(link, error, types, logger)) return undefined;
      onTimeout?.();
      logger.debug(`the community's budget did not answer (${errorText(error)})`);
    }
    failures += 1;
    if (failures >= FAILURES_BEFORE_ALONE) {
      failures = 0;
      aloneUntil = now() + ALONE_AFTER_FAILURE_MS;
    }
    return undefined;
  };
  const requestOf = (ticket: number) => {
    const id = requests.get(ticket) ?? '';
    requests.delete(ticket);
    return id;
  };
  const answerArgs = (ticket: number, observation: RateLimitObservation) => [
    ticket,
    arg(observation.limit),
    arg(observation.windowMs),
    arg(observation.remaining),
    arg(observation.resetInMs),
  ];
  return {
    get active() {
      return link.isUp && now() >= aloneUntil;
    },
    get servers() {
      return servers;
    },
    get aloneForMs() {
      const left = aloneUntil - now();
      return left > 0 ? left : undefined;
    },
    async acquire(requestClass: RequestClass, local: BudgetSnapshot): Promise<BudgetGrant | undefined> {
      const resetIn = local.resetAt !== undefined && local.resetKnown ? Math.max(0, local.resetAt - now()) : undefined;
      asked += 1;
      const requestId = `${serverId}:${asked}`;
      // A call that failed may still have run in Redis (a timeout): whatever it was granted is given back.
      const giveBack = () => void link.script(SHARED_BUDGET_LUA, keys, ['release', requestId]).catch(() => {});
      const answer = await run(
        [
          'acquire',
          classRank(requestClass),
          local.limit,
          local.windowMs,
          local.limitSource === 'panel' ? 1 : 0,
          local.remaining,
          arg(resetIn),
          serverId,
          requestId,
        ],
        giveBack,
      );
      if (!answer) return this.active ? { granted: false, retryInMs: ASK_AGAIN_AFTER_MS } : undefined;
      const [granted, value, members] = answer;
      if (members !== undefined && members >= 1) servers = members;
      if (granted === 1) requests.set(value, requestId);
      return granted === 1 ? { granted: true, ticket: value } : { granted: false, retryInMs: value };
    },
    observe(ticket, observation) {
      void run(['observe', ...answerArgs(ticket, observation), '', '', requestOf(ticket)]);
    },
    refused(ticket, observation) {
      const retryAfter = arg(observation.retryAfterMs);
      void run(['refused', ...answerArgs(ticket, observation), retryAfter, LONGEST_WAIT_MS, requestOf(ticket)]);
    },
  };
}
