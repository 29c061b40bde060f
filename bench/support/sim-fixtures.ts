// Shared set-up for the simulator's own tests: the fixture pair, a server.cfg, and throwaway resource folders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSim, type Sim, type SimOptions, type SimPlayer } from '../../sim/index.js';

export const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const coreDir = path.join(fixturesDir, 'sim_core');
export const consumerDir = path.join(fixturesDir, 'sim_consumer');

export const adminChatId = '111111111111111111';

export const serverCfg = `
# convars the fixtures read
set sim_plain "plain value"
setr sim_replicated "replicated value"
set sim_int 42
set sim_garbage abc
set sim_float 2.5
set sim_bool true
set sim_yes yes
# who may run restricted commands
add_ace group.admin command.coreadmin allow
add_ace group.admin command.luacmd allow
add_principal identifier.chat:${adminChatId} group.admin
`;

/** The fixture pair (sim_core, sim_consumer) on a virtual clock unless told otherwise. */
export function startFixtures(options: Partial<SimOptions> = {}): Promise<Sim> {
  return createSim({ resources: [coreDir, consumerDir], convars: serverCfg, clock: 'virtual', ...options });
}

/** `count` players joined one after another, each with a chat id and a license (test/sim/scenario.test.ts). */
export async function joinOfficers(sim: Sim, count: number): Promise<SimPlayer[]> {
  const players: SimPlayer[] = [];
  for (let i = 0; i < count; i++) {
    players.push(
      await sim.join({
        name: `Officer ${i}`,
        identifiers: [`chat:${100000000000000000n + BigInt(i)}`, `license:${i}`],
      }),
    );
  }
  return players;
}

// Every temporary folder lives under one root per test process; roots of processes that are gone are removed.
let tempRoot: string | null = null;
function underTempRoot(prefix: string): string {
  if (!tempRoot) {
    for (const entry of fs.readdirSync(os.tmpdir())) {
      const pid = /^sim-tests-(\d+)$/.exec(entry)?.[1];
      if (pid && !processAlive(Number(pid))) fs.rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true });
    }
    const root = path.join(os.tmpdir(), `sim-tests-${process.pid}`);
    fs.mkdirSync(root, { recursive: true });
    tempRoot = root;
    process.once('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  }
  return fs.mkdtempSync(path.join(tempRoot, prefix));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A resource folder made of the given files, in a fresh temporary directory. */
export function tempResource(name: string, files: Record<string, string>): string {
  const dir = path.join(underTempRoot('res-'), name);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

export function tempDir(prefix: string): string {
  return underTempRoot(prefix);
}

export const manifest = (lines: string) => `fx_version 'cerulean'\ngame 'gta5'\n${lines}\n`;

/** What a fixture resource recorded (its GetLog export), read on the server. */
export function logOf(sim: Sim, resource: string): Record<string, unknown>[] {
  return sim.exports[resource].GetLog() as Record<string, unknown>[];
}

export function entries(log: Record<string, unknown>[], kind: string): Record<string, unknown>[] {
  return log.filter((e) => e.kind === kind);
}
