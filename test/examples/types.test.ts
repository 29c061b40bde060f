import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../e2e/support/world.js';
import { TS_DUTY_HUD } from './support/ts-duty-hud.js';
import { projectDiagnostics, sourceDiagnostics } from './support/type-check.js';

// Consumers live in test/examples/ here; a real resource reaches the same files through a tsconfig path.
const CLIENT_CONSUMER = `
import type { DutyOutcome, MockDepartmentData } from '../../types/index.js';

const options = exports.bridge.GetDutyOptions();
const rankId: number | undefined = options.departments[0]?.rank.id;
options.departments[0]?.setActive();
exports.bridge.UpdatePlayerDuty(true, (outcome: DutyOutcome) => {
  const detail: number | null | string = outcome.ok ? outcome.since : outcome.error;
  console.log(rankId, detail);
});
onNet('bridge:client:deptData', (department) => {
  // The data is what the panel sent, unchecked: a consumer checks it before use.
  const data = department.data as Partial<MockDepartmentData> | null;
  const model: string | undefined = Array.isArray(data?.vehicles) ? data.vehicles[0]?.model : undefined;
  console.log(model, data?.callsignPrefix?.toUpperCase(), department.rank.name);
  // @ts-expect-error the department data is unknown until checked
  console.log(department.data.vehicles);
});
onNet('some:other:event', (anything: unknown) => console.log(anything));
const slug: string | null | undefined = LocalPlayer.state['bridge:duty']?.departmentSlug;
console.log(slug);
const policeOnDuty: number = GlobalState['bridge:onDutyCount']?.lspd ?? 0;
const everyone: number | undefined = GlobalState['bridge:onDutyCount']?.total;
console.log(policeOnDuty, everyone);

// @ts-expect-error UpdatePlayerDuty takes a boolean
exports.bridge.UpdatePlayerDuty('on');
// @ts-expect-error there is no such export
exports.bridge.GetDutyOption();
onNet('bridge:client:offDuty', (info) => {
  // @ts-expect-error the payload names the department by id only
  console.log(info.departmentName);
  const reason:
    | 'request'
    | 'department_removed'
    | 'account_removed'
    | 'resource_stop'
    | 'admin'
    | 'replaced'
    | 'superseded'
    | 'server_shutdown'
    | 'kicked'
    | 'banned' = info.reason;
  // @ts-expect-error a player who dropped has no client left to tell: the client never hears 'dropped'
  const dropped: typeof info.reason = 'dropped';
  console.log(reason, dropped);
});
`;

const SERVER_CONSUMER = `
on('bridge:server:playerOnDuty', (src, departmentId, rankId, resumed) => {
  const sum: number = src + departmentId + rankId;
  const sameShift: boolean = resumed;
  console.log(sum, sameShift, Player(src).state['bridge:duty']?.since);
});
exports.bridge.SetPlayerDuty(1, true, 2).then((outcome) => console.log(outcome.ok));
const firstOnDuty: number | undefined = exports.bridge.GetOnDutyPlayers(1)[0]?.source;
const departments: string[] = exports.bridge.GetPlayerDepartments(1).departments.map((d) => d.slug);
console.log(firstOnDuty, departments, exports.bridge.GetPlayerDuty(1).departmentSlug);

const lspdCount: number = exports.bridge.GetOnDutyCount('lspd');
const allCount: number = exports.bridge.GetOnDutyCount();
console.log(lspdCount + allCount, GlobalState['bridge:onDutyCount']?.total);
const communityLspd: number = exports.bridge.GetCommunityOnDutyCount('lspd');
const communityAll: number | undefined = GlobalState['bridge:communityOnDutyCount']?.total;
console.log(communityLspd, communityAll);
// @ts-expect-error GetCommunityOnDutyCount takes a department's slug, not its id
exports.bridge.GetCommunityOnDutyCount(1);

// @ts-expect-error the server's IsPlayerOnDuty needs the player
exports.bridge.IsPlayerOnDuty();
// @ts-expect-error GetOnDutyCount takes a department's slug, not its id
exports.bridge.GetOnDutyCount(1);
// @ts-expect-error SetPlayerDuty answers with a promise
console.log(exports.bridge.SetPlayerDuty(1, false).ok);
on('bridge:server:playerOffDuty', (src, reason, resumable) => {
  // @ts-expect-error the player is a server id, a number
  src.toUpperCase();
  // A player who dropped is off duty too: the server hears 'dropped', which the client never does.
  const dropped: boolean = reason === 'dropped' && !resumable;
  console.log(dropped);
});
`;

const client = (source: string) =>
  sourceDiagnostics({
    files: { 'test/examples/consumer.ts': source },
    include: ['types/client.d.ts'],
    types: ['@citizenfx/client'],
  });

describe('the types shipped for TypeScript consumers (types/)', () => {
  it('type a client script: exports.bridge, onNet payloads and the state bag, refusing each misuse', () => {
    expect(client(CLIENT_CONSUMER)).toEqual([]);
  });

  it('type a server script: exports.bridge, on arguments and the state bag, refusing each misuse', () => {
    const diagnostics = sourceDiagnostics({
      files: { 'test/examples/consumer.ts': SERVER_CONSUMER },
      include: ['types/server.d.ts'],
      types: ['@citizenfx/server'],
    });
    expect(diagnostics).toEqual([]);
  });

  it('take a player id as the string getPlayers() gives, in every server export that takes a player', () => {
    // The exports read a numeric string as the id (server/edge/server-exports.ts); the types must not refuse it.
    const diagnostics = sourceDiagnostics({
      files: {
        'test/examples/consumer.ts': `
for (const id of getPlayers()) {
  const onDuty: boolean = exports.bridge.IsPlayerOnDuty(id);
  const since: number | null | undefined = exports.bridge.GetPlayerDuty(id).since;
  const ok: boolean = exports.bridge.GetPlayerDepartments(id).ok;
  exports.bridge.SetPlayerDuty(id, false).then((outcome) => console.log(outcome.ok));
  exports.bridge.RefreshPlayer(id).then((profile) => console.log(profile.ok));
  console.log(onDuty, since, ok);
}
// @ts-expect-error a player is a server id, not a boolean
exports.bridge.IsPlayerOnDuty(true);
`,
      },
      include: ['types/server.d.ts'],
      types: ['@citizenfx/server'],
    });
    expect(diagnostics).toEqual([]);
  });

  it('report a misuse left unmarked, so the checks above can fail', () => {
    expect(client("exports.bridge.UpdatePlayerDuty('on');")).toEqual([
      expect.stringMatching(/^test\/examples\/consumer\.ts:1 TS2345: Argument of type 'string'/),
    ]);
  });

  it('type-check the TS example, client and server', () => {
    expect(projectDiagnostics(join(TS_DUTY_HUD, 'src', 'client', 'tsconfig.json'))).toEqual([]);
    expect(projectDiagnostics(join(TS_DUTY_HUD, 'src', 'server', 'tsconfig.json'))).toEqual([]);
  });

  it('are built from the source into one self-contained file, doc comments kept', () => {
    const built = readFileSync(join(REPO_ROOT, 'types', 'index.d.ts'), 'utf8');
    expect(built).not.toMatch(/^\s*import\b|\bfrom '/m);
    expect(built).toContain('/** Marks this department as the one UpdatePlayerDuty(true) goes on duty for. */');
  });
});
