// The operations of the chaos test, as fast-check commands: what players do (join, drop, on, off, switch server),
// what happens to servers (crash, restart, a copied folder) and the faults of Redis and of each server's link to it.
// The model is only what decides which operation can run next (who is where, what is down); the checks read the
// world's record, never the model. Each command prints as it is written here, so a shrunk sequence reads as a script.
import fc from 'fast-check';
import { ACCOUNTS, type Account, type ChaosWorld } from './chaos-world.js';

export interface ChaosModel {
  /** Servers that exist: the first ones, and a copied one. */
  servers: number;
  up: boolean[];
  /** Who is joined where: `<server>:<chat id>`. */
  sessions: Set<string>;
  redisUp: boolean;
  snapshots: number;
  replicaLagging: boolean;
  promoted: boolean;
  cut: Set<number>;
}

export const initialModel = (servers: number): ChaosModel => ({
  servers,
  up: Array.from({ length: servers }, () => true),
  sessions: new Set(),
  redisUp: true,
  snapshots: 0,
  replicaLagging: false,
  promoted: false,
  cut: new Set(),
});

/** At most this many servers: the first three and one copied folder. */
const MOST_SERVERS = 4;

type Command = fc.AsyncCommand<ChaosModel, ChaosWorld>;
const sessionKey = (server: number, account: Account) => `${server}:${account.chatId}`;
const first = (account: Account) => account.name.split(' ')[0];

const command = (
  text: string,
  check: (model: ChaosModel) => boolean,
  run: (model: ChaosModel, world: ChaosWorld) => Promise<void>,
): Command => ({ check, run, toString: () => text });

const canRun = (model: ChaosModel, server: number) => server < model.servers && model.up[server] === true;
const joined = (model: ChaosModel, server: number, account: Account) =>
  canRun(model, server) && model.sessions.has(sessionKey(server, account));

const join = (server: number, account: Account) =>
  command(
    `join(${server}, ${first(account)})`,
    (model) => canRun(model, server) && !model.sessions.has(sessionKey(server, account)),
    async (model, world) => {
      model.sessions.add(sessionKey(server, account));
      await world.join(server, account);
    },
  );

const drop = (server: number, account: Account, how: 'quit' | 'game crash') =>
  command(
    `drop(${server}, ${first(account)}, ${how})`,
    (model) => joined(model, server, account),
    async (model, world) => {
      model.sessions.delete(sessionKey(server, account));
      await world.drop(server, account, how);
    },
  );

/** Goes on duty in a department the profile grants, joining first when the account has no session there. */
const on = (server: number, account: Account, choice: number) => {
  const department = account.departments[choice % account.departments.length] as number;
  return command(
    `on(${server}, ${first(account)}, ${department})`,
    (model) => canRun(model, server),
    async (model, world) => {
      if (!model.sessions.has(sessionKey(server, account))) {
        model.sessions.add(sessionKey(server, account));
        await world.join(server, account);
      }
      await world.goOn(server, account, department);
    },
  );
};

const off = (server: number, account: Account) =>
  command(
    `off(${server}, ${first(account)})`,
    (model) => joined(model, server, account),
    (_model, world) => world.goOff(server, account),
  );

/** The same chat account joins another server and goes on duty there, leaving a ghost behind or quitting first. */
const switchServer = (account: Account, from: number, to: number, ghost: boolean) =>
  command(
    `switch(${first(account)}, ${from} → ${to}${ghost ? ', ghost' : ''})`,
    (model) =>
      from !== to && joined(model, from, account) && canRun(model, to) && !model.sessions.has(sessionKey(to, account)),
    async (model, world) => {
      if (!ghost) {
        model.sessions.delete(sessionKey(from, account));
        await world.drop(from, account, 'quit');
      }
      model.sessions.add(sessionKey(to, account));
      await world.join(to, account);
      await world.goOn(to, account, account.departments[0] as number);
    },
  );

const crash = (server: number) =>
  command(
    `crash(${server})`,
    (model) => canRun(model, server),
    async (model, world) => {
      model.up[server] = false;
      for (const key of [...model.sessions]) if (key.startsWith(`${server}:`)) model.sessions.delete(key);
      await world.crash(server);
    },
  );

const restart = (server: number) =>
  command(
    `restart(${server})`,
    (model) => server < model.servers && model.up[server] === false,
    async (model, world) => {
      model.up[server] = true;
      await world.restart(server);
    },
  );

const copyFolder = (from: number) =>
  command(
    `copyFolder(${from})`,
    (model) => from < model.servers && model.servers < MOST_SERVERS,
    async (model, world) => {
      model.servers += 1;
      model.up.push(true);
      await world.copyFolder(from);
    },
  );

const pause = (ms: number) =>
  command(
    `pauseRedis(${ms})`,
    (model) => model.redisUp,
    (_model, world) => world.pauseRedis(ms),
  );

const snapshot = () =>
  command(
    'snapshot()',
    (model) => model.redisUp && !model.promoted,
    async (model, world) => {
      model.snapshots += 1;
      await world.snapshot();
    },
  );

const killRedis = () =>
  command(
    'killRedis()',
    (model) => model.redisUp && !model.promoted,
    async (model, world) => {
      model.redisUp = false;
      await world.killRedis();
    },
  );

/** Back from snapshot `choice` (among those taken so far, counted from 1), or empty (0). */
const restartRedis = (choice: number) =>
  command(
    `restartRedis(${choice === 0 ? 'empty' : `snapshot ${choice}`})`,
    (model) => !model.redisUp && choice <= model.snapshots,
    async (model, world) => {
      model.redisUp = true;
      await world.restartRedis(choice === 0 ? undefined : choice);
    },
  );

const replicaLags = () =>
  command(
    'replicaLags()',
    (model) => model.redisUp && !model.promoted && !model.replicaLagging,
    async (model, world) => {
      model.replicaLagging = true;
      await world.replicaLags();
    },
  );

const promote = () =>
  command(
    'promoteReplica()',
    (model) => model.redisUp && model.replicaLagging && !model.promoted,
    async (model, world) => {
      model.promoted = true;
      await world.promoteReplica();
    },
  );

const cut = (server: number, mode: 'reset' | 'blackhole') =>
  command(
    `cut(${server}, ${mode})`,
    (model) => server < model.servers && !model.cut.has(server),
    async (model, world) => {
      model.cut.add(server);
      world.cut(server, mode);
    },
  );

const heal = (server: number) =>
  command(
    `heal(${server})`,
    (model) => model.cut.has(server),
    async (model, world) => {
      model.cut.delete(server);
      world.heal(server);
    },
  );

const wait = (ms: number) =>
  command(
    `wait(${ms})`,
    () => true,
    (_model, world) => world.wait(ms),
  );

/** Mostly the first three servers: the fourth exists only once a folder was copied. */
const server = fc.oneof(
  { weight: 9, arbitrary: fc.nat({ max: MOST_SERVERS - 2 }) },
  { weight: 1, arbitrary: fc.constant(MOST_SERVERS - 1) },
);
/** Alex twice as often as the others: the account with two departments, so a switch can change department too. */
const account = fc.oneof(
  { weight: 2, arbitrary: fc.constant(ACCOUNTS[0] as Account) },
  { weight: 1, arbitrary: fc.constantFrom(...ACCOUNTS.slice(1)) },
);

/**
 * Every operation, weighted by repetition (fc.commands picks among its arbitraries evenly): players act more often
 * than servers crash, and a fault comes about once in three operations.
 */
export const chaosCommands: Array<fc.Arbitrary<Command>> = [
  fc.tuple(server, account).map(([s, a]) => join(s, a)),
  ...Array.from({ length: 4 }, () => fc.tuple(server, account, fc.nat(1)).map(([s, a, d]) => on(s, a, d))),
  ...Array.from({ length: 3 }, () => fc.tuple(server, account).map(([s, a]) => off(s, a))),
  fc
    .tuple(server, account, fc.constantFrom('quit', 'game crash') as fc.Arbitrary<'quit' | 'game crash'>)
    .map(([s, a, how]) => drop(s, a, how)),
  ...Array.from({ length: 2 }, () =>
    fc.tuple(account, server, server, fc.boolean()).map(([a, from, to, ghost]) => switchServer(a, from, to, ghost)),
  ),
  server.map(crash),
  server.map(restart),
  server.map(copyFolder),
  fc.integer({ min: 600, max: 3_000 }).map(pause),
  fc.constant(null).map(snapshot),
  fc.constant(null).map(killRedis),
  fc.nat(3).map(restartRedis),
  fc.constant(null).map(replicaLags),
  fc.constant(null).map(promote),
  fc
    .tuple(server, fc.constantFrom('reset', 'blackhole') as fc.Arbitrary<'reset' | 'blackhole'>)
    .map(([s, mode]) => cut(s, mode)),
  server.map(heal),
  ...Array.from({ length: 2 }, () => fc.integer({ min: 100, max: 2_500 }).map(wait)),
];
