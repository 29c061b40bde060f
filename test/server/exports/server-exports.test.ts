import { describe, expect, it, vi } from 'vitest';
import { type DutyState, OFF_DUTY } from '../../../server/duty/duty-model.js';
import { createServerExports, type ServerExportsDeps } from '../../../server/edge/server-exports.js';
import type { ProfilePayload } from '../../../shared/events.js';

const lspd = { id: 1, slug: 'lspd', name: 'Los Santos Police Department', rank: { id: 2, name: 'Sergeant' } };
const bcso = { id: 2, slug: 'bcso', name: "Blaine County Sheriff's Office", rank: { id: 4, name: 'Deputy' } };
/** What the exports say of a duty: the department's slug, not its name. */
const lspdDuty = { onDuty: true, departmentId: 1, departmentSlug: 'lspd', rankId: 2, since: 1000 };
const offDuty = { onDuty: false, departmentId: null, departmentSlug: null, rankId: null, since: null };
const onDutyLspd: DutyState = { ...lspdDuty, departmentName: 'LSPD' };

function deps(overrides: Partial<ServerExportsDeps> = {}) {
  const profiles = new Map<number, ProfilePayload>([
    [3, { ok: true, chatId: '284619375016482817', fetchedAt: 1, departments: [lspd, bcso] }],
    [4, { ok: true, chatId: '1039284756102938475', fetchedAt: 1, departments: [bcso] }],
    [5, { ok: false, error: 'not_registered', message: 'sync' }],
  ]);
  const states = new Map<number, DutyState>([[3, onDutyLspd]]);
  const base: ServerExportsDeps = {
    dutyState: (src) => states.get(src) ?? OFF_DUTY,
    onDutyPlayers: () => [...states.entries()].filter(([, state]) => state.onDuty),
    isKnownPlayer: (src) => [3, 4, 5, 6].includes(src),
    cachedProfile: (src) => profiles.get(src),
    setDuty: vi.fn(async (_src, _on, departmentId) => ({
      ok: true as const,
      changed: true,
      onDuty: true,
      departmentId,
      rankId: 4,
      since: 5,
    })),
    takeOffDuty: vi.fn(async () => ({ ok: true as const, changed: true, ...OFF_DUTY })),
    communityCount: (slug) => (slug === undefined ? 7 : 0),
    refresh: vi.fn(async (src) => profiles.get(src) as ProfilePayload),
  };
  return { ...base, ...overrides };
}

describe('the server exports', () => {
  it('answer duty questions for a player id given as a number or as the string GetPlayers() returns', () => {
    const exports = createServerExports(deps());
    expect(exports.IsPlayerOnDuty(3)).toBe(true);
    expect(exports.IsPlayerOnDuty('3' as unknown as number)).toBe(true);
    expect(exports.IsPlayerOnDuty(4)).toBe(false);
    expect(exports.GetPlayerDuty(3)).toEqual(lspdDuty);
    expect(exports.GetPlayerDuty(4)).toEqual(offDuty);
  });

  it('treat an unknown, zero, negative or fractional id as a player who is not on duty', () => {
    const exports = createServerExports(deps());
    for (const bad of [99, 0, -3, 3.5, null, 'abc', {}]) {
      expect(exports.IsPlayerOnDuty(bad as number)).toBe(false);
      expect(exports.GetPlayerDuty(bad as number)).toEqual(offDuty);
    }
  });

  it('count the players on duty, in one department by its slug or in all; anything but a slug counts nobody', () => {
    const onDutyBcso: DutyState = {
      ...onDutyLspd,
      departmentId: 2,
      departmentSlug: 'bcso',
      departmentName: 'BCSO',
      rankId: 4,
      since: 2000,
    };
    const onDuty = [
      [3, onDutyLspd],
      [4, onDutyBcso],
      [6, onDutyLspd],
    ] as const;
    const exports = createServerExports(deps({ onDutyPlayers: () => onDuty }));
    expect(exports.GetOnDutyCount()).toBe(3);
    expect(exports.GetOnDutyCount(null as unknown as string)).toBe(3);
    expect(exports.GetOnDutyCount('lspd')).toBe(2);
    expect(exports.GetOnDutyCount('bcso')).toBe(1);
    for (const nobody of ['safr', 'LSPD', '', 'toString', '__proto__', 1, {}, ['lspd']]) {
      expect(exports.GetOnDutyCount(nobody as string), String(nobody)).toBe(0);
    }
  });

  it('list the players on duty, all of them or one department', () => {
    const exports = createServerExports(deps());
    expect(exports.GetOnDutyPlayers()).toEqual([{ source: 3, ...lspdDuty }]);
    expect(exports.GetOnDutyPlayers(1)).toEqual([{ source: 3, ...lspdDuty }]);
    expect(exports.GetOnDutyPlayers(2)).toEqual([]);
    expect(exports.GetOnDutyPlayers(null as unknown as number)).toHaveLength(1);
  });

  it('give the departments the bridge holds, or the reason it holds none', () => {
    const exports = createServerExports(deps());
    expect(exports.GetPlayerDepartments(3)).toEqual({ ok: true, departments: [lspd, bcso] });
    expect(exports.GetPlayerDepartments(5)).toEqual({ ok: false, departments: [], error: 'not_registered' });
    expect(exports.GetPlayerDepartments(6)).toEqual({ ok: false, departments: [], error: 'not_loaded' });
    expect(exports.GetPlayerDepartments(99)).toEqual({ ok: false, departments: [], error: 'unknown_player' });
  });

  it('set duty through the same path as a player request, choosing the only department when none is named', async () => {
    const d = deps();
    const exports = createServerExports(d);
    await expect(exports.SetPlayerDuty(4, true)).resolves.toMatchObject({ ok: true, departmentId: 2 });
    expect(d.setDuty).toHaveBeenCalledWith(4, true, 2);
    await expect(exports.SetPlayerDuty(3, true, 2)).resolves.toMatchObject({ ok: true });
    expect(d.setDuty).toHaveBeenLastCalledWith(3, true, 2);
    await expect(exports.SetPlayerDuty(3, false)).resolves.toMatchObject({ ok: true, onDuty: false });
    expect(d.takeOffDuty).toHaveBeenCalledWith(3);
  });

  it('refuse a duty change it cannot decide, without touching the duty machine', async () => {
    const d = deps();
    const exports = createServerExports(d);
    await expect(exports.SetPlayerDuty(3, true)).resolves.toMatchObject({ ok: false, error: 'no_department_selected' });
    await expect(exports.SetPlayerDuty(99, true, 1)).resolves.toMatchObject({ ok: false, error: 'invalid_request' });
    await expect(exports.SetPlayerDuty(3, 'yes' as unknown as boolean)).resolves.toMatchObject({
      ok: false,
      error: 'invalid_request',
    });
    await expect(exports.SetPlayerDuty(3, true, -1)).resolves.toMatchObject({ ok: false, error: 'invalid_request' });
    expect(d.setDuty).not.toHaveBeenCalled();
    expect(d.takeOffDuty).not.toHaveBeenCalled();
  });

  it('refresh a connected player and refuse an unknown one', async () => {
    const d = deps();
    const exports = createServerExports(d);
    await expect(exports.RefreshPlayer(3)).resolves.toMatchObject({ ok: true });
    await expect(exports.RefreshPlayer(42)).resolves.toMatchObject({ ok: false });
    expect(d.refresh).toHaveBeenCalledTimes(1);
  });
});

describe('GetOnDutyPlayers between duty changes', () => {
  it('lists what the duty service holds now, and a caller changing a list it got changes nothing for the next', () => {
    let onDuty: Array<[number, DutyState]> = [[3, onDutyLspd]];
    const exports = createServerExports(deps({ onDutyPlayers: () => onDuty }));
    const first = exports.GetOnDutyPlayers();
    first.pop();
    expect(exports.GetOnDutyPlayers()).toEqual([{ source: 3, ...lspdDuty }]);
    onDuty = [
      [3, onDutyLspd],
      [4, { ...onDutyLspd, departmentId: 2, departmentSlug: 'bcso', rankId: 4 }],
    ];
    expect(exports.GetOnDutyPlayers().map((player) => player.source)).toEqual([3, 4]);
    expect(exports.GetOnDutyPlayers(2).map((player) => player.source)).toEqual([4]);
    onDuty = [];
    expect(exports.GetOnDutyPlayers()).toEqual([]);
  });
});
