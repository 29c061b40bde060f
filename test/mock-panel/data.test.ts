import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockPanel, loadMockPanelData, type MockPanelData, MockPanelDataError } from '../../mock-panel';
import { departmentsOf } from '../../mock-panel/store/departments-of';
import { DepartmentsReadSchema, DepartmentsResponseSchema, departmentsPath } from '../../shared/contract';
import {
  LSPD_ROLES,
  MEMBER_WITHOUT_RANK_ROLE,
  NO_DEPARTMENTS,
  ONE_DEPARTMENT,
  OTHER_GUILD,
  OTHER_GUILD_ONLY,
  TWO_DEPARTMENTS,
} from './support/demo-users';
import { bodyOf, inProcess } from './support/panel-transports';

const seed = loadMockPanelData();
const scratch = mkdtempSync(join(tmpdir(), 'mock-panel-data-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function userOf(data: MockPanelData, chatId: string) {
  const user = data.users.find((candidate) => candidate.chatId === chatId);
  if (!user) throw new Error(`no demo user ${chatId}`);
  return user;
}

function ranksIn(guildId: string, chatId: string, data = seed) {
  return departmentsOf(userOf(data, chatId), data.departments, guildId).map((d) => `${d.slug}:${d.rank.name}`);
}

function writeData(name: string, content: string) {
  const file = join(scratch, name);
  writeFileSync(file, content);
  return file;
}

describe('the default data', () => {
  it('has a user in two departments, one in one, one with roles only in another guild, and one with none', () => {
    expect(ranksIn(seed.guildId, TWO_DEPARTMENTS)).toEqual(['lspd:Sergeant', 'bcso:Deputy']);
    expect(ranksIn(seed.guildId, ONE_DEPARTMENT)).toEqual(['safr:Captain']);
    expect(ranksIn(seed.guildId, OTHER_GUILD_ONLY)).toEqual([]);
    expect(ranksIn(seed.guildId, NO_DEPARTMENTS)).toEqual([]);
  });
});

describe('departments from roles', () => {
  it('the rank is the highest rank role held, ranks being listed lowest first', () => {
    expect(ranksIn(seed.guildId, ONE_DEPARTMENT)).toEqual(['safr:Captain']);
  });

  it('a member holding no rank role has the entry rank', () => {
    expect(ranksIn(seed.guildId, MEMBER_WITHOUT_RANK_ROLE)).toEqual(['lspd:Officer']);
  });

  it('a rank role without a member role grants nothing', () => {
    const data = structuredClone(seed);
    userOf(data, NO_DEPARTMENTS).roles[seed.guildId] = [LSPD_ROLES.lieutenant];
    expect(ranksIn(seed.guildId, NO_DEPARTMENTS, data)).toEqual([]);
  });

  it('only the configured guild counts: CHAT_GUILD_ID changes whose roles grant what', () => {
    const panel = createMockPanel({ token: 't', guildId: OTHER_GUILD });
    const slugs = (chatId: string) => {
      const user = panel.store.users.find(chatId);
      return user ? panel.store.users.departmentsOf(user).map((d) => `${d.slug}:${d.rank.name}`) : undefined;
    };
    expect(slugs(OTHER_GUILD_ONLY)).toEqual(['lspd:Lieutenant']);
    expect(slugs(TWO_DEPARTMENTS)).toEqual(['safr:Captain']);
  });
});

describe('loading a data file', () => {
  it('refuses an invalid file with an error naming the file and the path', () => {
    const data = structuredClone(seed) as { users: { chatId: string }[] };
    if (data.users[1]) data.users[1].chatId = '12345';
    const file = writeData('bad-id.json', JSON.stringify(data));
    expect(() => loadMockPanelData(file)).toThrow(MockPanelDataError);
    expect(() => loadMockPanelData(file)).toThrow(new RegExp(`${file}[\\s\\S]*at users\\[1\\]\\.chatId`));
  });

  it('refuses duplicate chat ids and department ids', () => {
    const data = structuredClone(seed);
    data.users.push({ ...userOf(data, TWO_DEPARTMENTS) });
    data.departments.push({ ...(data.departments[0] as MockPanelData['departments'][number]), slug: 'copy' });
    const file = writeData('duplicates.json', JSON.stringify(data));
    expect(() => loadMockPanelData(file)).toThrow(
      /duplicate chatId 284619375016482817[\s\S]*duplicate department id 1/,
    );
  });

  it('refuses a file that is not JSON, and one that does not exist', () => {
    expect(() => loadMockPanelData(writeData('broken.json', '{ "guildId": '))).toThrow(/broken\.json is not JSON/);
    expect(() => loadMockPanelData(join(scratch, 'missing.json'))).toThrow(/cannot read mock panel data/);
  });

  it('takes a department without data, as the contract allows: its answer has none, and the bridge reads {}', async () => {
    const data = structuredClone(seed) as unknown as { departments: Array<Record<string, unknown>> };
    delete data.departments[0]?.data;
    const running = await inProcess.start({ data: loadMockPanelData(writeData('no-data.json', JSON.stringify(data))) });
    try {
      const answer = await (await running.client.get(departmentsPath(TWO_DEPARTMENTS))).json();
      const [lspd, bcso] = DepartmentsResponseSchema.parse(answer).departments;
      expect(lspd).toMatchObject({ slug: 'lspd' });
      expect(lspd).not.toHaveProperty('data');
      expect(bcso?.data?.vehicles.length).toBeGreaterThan(0);
      expect(DepartmentsReadSchema.parse(answer).departments[0]?.data).toEqual({});
    } finally {
      await running.stop();
    }
  });

  it('loads the minimal file mock-panel/README.md shows: one user in one department without data', async () => {
    const readme = readFileSync(new URL('../../mock-panel/README.md', import.meta.url), 'utf8');
    const shown = /## Data file[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const running = await inProcess.start({ data: loadMockPanelData(writeData('readme.json', shown)) });
    try {
      const answer = await bodyOf(
        await running.client.get(departmentsPath('701234567890123456')),
        DepartmentsResponseSchema,
      );
      expect(answer.departments).toEqual([
        { id: 9, slug: 'doa', name: 'Department of Aviation', rank: { id: 91, name: 'Pilot' } },
      ]);
    } finally {
      await running.stop();
    }
  });

  it('refuses a guild override that is not a snowflake', () => {
    expect(() => createMockPanel({ token: 't', guildId: 'guild-1' })).toThrow(/CHAT_GUILD_ID/);
  });
});
