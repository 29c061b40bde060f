import defaultData from '../../mock-panel/data/default.json' with { type: 'json' };
import type { MockPanelData } from '../../mock-panel/index.js';
import type { FakePlayer } from './fake-server-port.js';

export interface PopulationMember {
  chatId: string;
  player: FakePlayer;
  /** The department the user is a member of (with its entry rank), or undefined for a civilian. */
  department: { id: number; rankId: number } | undefined;
}

export interface Population {
  /** Mock panel data with every member of the population as a user. */
  data: MockPanelData;
  members: PopulationMember[];
}

/**
 * `count` panel users for tests and benchmarks at server scale: every `memberEvery`-th one is a member of one of
 * the demo departments (LSPD, BCSO, SAFR in turn, at their entry rank), the others are civilians.
 */
export function population(count: number, { memberEvery = 2 }: { memberEvery?: number } = {}): Population {
  const base = defaultData as MockPanelData;
  const guild = base.guildId;
  const members: PopulationMember[] = [];
  const users: MockPanelData['users'] = [];
  for (let index = 0; index < count; index++) {
    const chatId = String(300_000_000_000_000_000n + BigInt(index));
    const name = `Player ${index + 1}`;
    const department =
      index % memberEvery === 0 ? base.departments[(index / memberEvery) % base.departments.length] : undefined;
    const roles = department ? [department.memberRoles[0] as string] : ['1187342095671230099'];
    users.push({ chatId, name, roles: { [guild]: roles } });
    members.push({
      chatId,
      player: { name, identifiers: [`license:${chatId}`, `chat:${chatId}`] },
      department: department ? { id: department.id, rankId: (department.ranks[0] as { id: number }).id } : undefined,
    });
  }
  return { data: { ...base, users }, members };
}
