import type {
  BridgeServerExports,
  DutyOutcome,
  OnDutyPlayer,
  PlayerDepartments,
  ProfilePayload,
} from '../../shared/events.js';
import type { Messages } from '../../shared/locale.js';
import type { Duty } from '../duty/index.js';
import { type DutyState, OFF_DUTY, onDutyByDepartment } from '../duty/index.js';
import type { PlayerRegistry, ServerPort } from '../kernel/index.js';
import { type Profiles, payloadOf } from '../profiles/index.js';
import { playerDutyOf } from './duty-state-bag.js';

export interface ServerExportsDeps {
  dutyState(src: number): DutyState;
  /** The same array for as long as nobody's duty changes. */
  onDutyPlayers(): ReadonlyArray<readonly [number, DutyState]>;
  isKnownPlayer(src: number): boolean;
  /** The profile the bridge holds for the player, without fetching; undefined when it has none yet. */
  cachedProfile(src: number): ProfilePayload | undefined;
  /** The same path as the player's own request: checks against the server's profile, panel call, events. */
  setDuty(src: number, on: boolean, departmentId: number): Promise<DutyOutcome>;
  takeOffDuty(src: number): Promise<DutyOutcome>;
  refresh(src: number): Promise<ProfilePayload>;
  /** GetCommunityOnDutyCount: the community's count (this server's own without Redis). */
  communityCount(slug: unknown): number;
}

// Lua's GetPlayers() gives ids as strings and other resources pass whatever they hold: accept both forms.
const playerId = (value: unknown): number | undefined => {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : undefined;
};

const optionalDepartmentId = (value: unknown): number | undefined | 'invalid' => {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 'invalid';
};

const refuse = (error: Extract<DutyOutcome, { ok: false }>['error'], message: string): Promise<DutyOutcome> =>
  Promise.resolve({ ok: false, error, message });

/** The bridge's server exports, for MDTs, admin tools and any resource that needs duty state on the server. */
export function createServerExports(deps: ServerExportsDeps): BridgeServerExports {
  const known = (src: unknown): number | undefined => {
    const id = playerId(src);
    return id !== undefined && deps.isKnownPlayer(id) ? id : undefined;
  };

  // Resources poll GetOnDutyPlayers far more often than duties change: its entries are built once per list the duty
  // service hands out. They are frozen because every call shares them (across the export boundary callers get copies).
  let listedFrom: ReadonlyArray<readonly [number, DutyState]> | undefined;
  let listed: readonly OnDutyPlayer[] = [];
  const onDutyList = (): readonly OnDutyPlayer[] => {
    const onDuty = deps.onDutyPlayers();
    if (onDuty !== listedFrom) {
      listedFrom = onDuty;
      listed = onDuty.map(([source, state]): OnDutyPlayer => Object.freeze({ source, ...playerDutyOf(state) }));
    }
    return listed;
  };

  // Robbery scripts ask for counts often: counted once per list the duty service hands out.
  let countedFrom: ReadonlyArray<readonly [number, DutyState]> | undefined;
  let counted: Readonly<Record<string, number>> = {};
  const departmentCounts = (): Readonly<Record<string, number>> => {
    const onDuty = deps.onDutyPlayers();
    if (onDuty !== countedFrom) {
      countedFrom = onDuty;
      counted = onDutyByDepartment(onDuty);
    }
    return counted;
  };

  return {
    IsPlayerOnDuty: (src) => {
      const id = known(src);
      return id !== undefined && deps.dutyState(id).onDuty;
    },
    GetPlayerDuty: (src) => {
      const id = known(src);
      return playerDutyOf(id === undefined ? OFF_DUTY : deps.dutyState(id));
    },
    GetOnDutyPlayers: (departmentId) => {
      const wanted = optionalDepartmentId(departmentId);
      const all = onDutyList();
      return wanted === undefined ? all.slice() : all.filter((player) => player.departmentId === wanted);
    },
    GetPlayerDepartments: (src): PlayerDepartments => {
      const id = known(src);
      if (id === undefined) return { ok: false, departments: [], error: 'unknown_player' };
      const profile = deps.cachedProfile(id);
      if (!profile) return { ok: false, departments: [], error: 'not_loaded' };
      return profile.ok
        ? { ok: true, departments: profile.departments }
        : { ok: false, departments: [], error: profile.error };
    },
    SetPlayerDuty: (src, on, departmentId) => {
      const id = known(src);
      if (id === undefined) return refuse('invalid_request', `no player ${String(src)} is connected`);
      if (typeof on !== 'boolean') return refuse('invalid_request', 'on must be true or false');
      if (!on) return deps.takeOffDuty(id);
      const wanted = optionalDepartmentId(departmentId);
      if (wanted === 'invalid') return refuse('invalid_request', 'departmentId must be a positive integer');
      if (wanted !== undefined) return deps.setDuty(id, true, wanted);
      // Without a department, the only one the player has is the obvious choice; anything else must be named.
      const profile = deps.cachedProfile(id);
      const only = profile?.ok && profile.departments.length === 1 ? profile.departments[0] : undefined;
      if (!only) return refuse('no_department_selected', 'name the department: the player has none or several');
      return deps.setDuty(id, true, only.id);
    },
    GetOnDutyCount: (slug) => {
      if (slug === undefined || slug === null) return deps.onDutyPlayers().length;
      // A slug is a string; anything else names no department (as GetOnDutyPlayers with a bad id lists nobody).
      return typeof slug === 'string' ? (departmentCounts()[slug] ?? 0) : 0;
    },
    GetCommunityOnDutyCount: (slug) => deps.communityCount(slug),
    RefreshPlayer: (src) => {
      const id = known(src);
      if (id === undefined) {
        return Promise.resolve({ ok: false, error: 'no_identifier', message: `no player ${String(src)} is connected` });
      }
      return deps.refresh(id);
    },
  };
}

export interface ExportsWiring {
  port: Pick<ServerPort, 'registerExport'>;
  duty: Pick<Duty, 'state' | 'onDutyPlayers' | 'request'>;
  players: PlayerRegistry;
  profiles: Pick<Profiles, 'cached' | 'refresh'>;
  messages: Messages;
  /** GetCommunityOnDutyCount's answer. */
  communityCount: (slug: unknown) => number;
}

/** Registers `exports.bridge:*` on the server; returns them for the admin command, which does the same things. */
export function registerServerExports({
  port,
  duty,
  players,
  profiles,
  messages,
  communityCount,
}: ExportsWiring): BridgeServerExports {
  const serverExports = createServerExports({
    dutyState: (src) => duty.state(src),
    onDutyPlayers: () => duty.onDutyPlayers(),
    isKnownPlayer: (src) => players.get(src) !== undefined,
    cachedProfile: (src) => {
      const entry = profiles.cached(src);
      return entry ? payloadOf(entry, messages) : undefined;
    },
    setDuty: (src, on, departmentId) =>
      duty.request(on ? { kind: 'on', src, departmentId } : { kind: 'off', src, reason: 'admin' }),
    takeOffDuty: (src) => duty.request({ kind: 'off', src, reason: 'admin' }),
    refresh: async (src) => (await profiles.refresh(src)).payload,
    communityCount,
  });
  for (const [name, fn] of Object.entries(serverExports)) port.registerExport(name, fn);
  return serverExports;
}
