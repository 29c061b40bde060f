import type { DepartmentData, Rank } from './contract/department-types.js';

/** A department as the game sees it: the panel's department without its data, which comes with deptData. */
export interface DepartmentSummary {
  id: number;
  slug: string;
  name: string;
  rank: Rank;
}

/** Why a player has no usable profile. */
export type ProfileErrorCode =
  | 'not_configured'
  | 'no_identifier'
  | 'malformed_identifier'
  | 'not_registered'
  | 'unauthorized'
  | 'panel_unavailable';

/** `bridge:client:profile`: the player's departments, sent when they load or are refreshed. */
export type ProfilePayload =
  | { ok: true; chatId: string; departments: DepartmentSummary[]; fetchedAt: number }
  | { ok: false; error: ProfileErrorCode; message: string };

/** `bridge:client:deptData`: the department the player went on duty for (again when their rank changes). */
export interface DeptDataPayload {
  departmentId: number;
  slug: string;
  name: string;
  rank: Rank;
  data: DepartmentData;
  /** The shift the player had before their game crashed or timed out goes on (Config.ResumeWindowMs). */
  resumed?: true;
}

/**
 * Why a player went off duty, as their client hears it in `bridge:client:offDuty`. `replaced`: the same chat account
 * went on duty in another session, on this server or another server of the community (one duty per account).
 * `superseded`: after a fault (Redis unreachable, restarted, failed over) the community settled the account's duty on
 * another server's later claim. `account_removed`: the panel itself answered that it does
 * not know the chat account (deleted or banned). A player who dropped has no client left to tell, so `dropped`
 * (DutyEndReason) never comes here.
 */
export type OffDutyReason =
  | 'request'
  | 'department_removed'
  | 'account_removed'
  | 'resource_stop'
  | 'admin'
  | 'replaced'
  | 'superseded'
  /** txAdmin is stopping or restarting the server (or kicking everyone). */
  | 'server_shutdown'
  /** Kicked or banned through txAdmin. */
  | 'kicked'
  | 'banned';

/**
 * Why a duty ended, as the server knows it: every OffDutyReason, and `dropped` for a player who disconnected (a
 * kick or a ban through txAdmin keeps its own reason).
 */
export type DutyEndReason = OffDutyReason | 'dropped';

/** `bridge:client:offDuty`. */
export interface OffDutyPayload {
  departmentId: number;
  reason: OffDutyReason;
}

export interface DutySnapshot {
  onDuty: boolean;
  departmentId: number | null;
  rankId: number | null;
  /** Unix epoch milliseconds when the current duty began. */
  since: number | null;
}

export type DutyErrorCode =
  | 'not_configured'
  | 'no_departments'
  | 'no_department_selected'
  | 'not_member'
  | 'profile_unavailable'
  | 'panel_refused'
  | 'panel_unavailable'
  | 'too_many_requests'
  | 'invalid_request';

/** What a duty change ended in: the new state, or why it was refused. */
export type DutyOutcome =
  | ({ ok: true; changed: boolean } & DutySnapshot)
  | { ok: false; error: DutyErrorCode; message: string };

/** Server events (local: listen with `on`), each with the arguments a listener receives. */
export interface BridgeServerEvents {
  /** `resumed`: the shift the player's game crashed or timed out in goes on (Config.ResumeWindowMs). */
  'bridge:server:playerOnDuty': [source: number, departmentId: number, rankId: number, resumed: boolean];
  /**
   * Also fired when a player on duty disconnects or the bridge stops. `resumable`: the game crashed or timed out and
   * the panel keeps the shift for Config.ResumeWindowMs; it ends there unless the player comes back to it in time.
   */
  'bridge:server:playerOffDuty': [source: number, reason: DutyEndReason, resumable: boolean];
  /**
   * A player on duty got another rank in the panel (found by the background revalidation or /dutyrefresh); they
   * stay on duty with it.
   */
  'bridge:server:playerRankChanged': [source: number, departmentId: number, rankId: number];
  /**
   * The panel renamed the department a player is on duty in (same id; a new slug or name, found like a new rank);
   * they stay on duty in it. `slug` is the new one, `previousSlug` the one the duty had until now (the same when
   * only the name changed).
   */
  'bridge:server:playerDepartmentRenamed': [source: number, departmentId: number, slug: string, previousSlug: string];
}

/** Client events (from the server: listen with `onNet`), each with the arguments a listener receives. */
export interface BridgeClientEvents {
  'bridge:client:profile': [profile: ProfilePayload];
  'bridge:client:deptData': [department: DeptDataPayload];
  'bridge:client:offDuty': [info: OffDutyPayload];
}

/** Events between the bridge's own client and server halves; other resources should not rely on them. */
export const INTERNAL_EVENTS = {
  /** client → server: the client script is ready for its profile and duty state. */
  clientReady: 'bridge:internal:ready',
  /** client → server: (requestId, on, departmentId | null) */
  dutyRequest: 'bridge:internal:dutyRequest',
  /** client → server: /dutyrefresh */
  refreshRequest: 'bridge:internal:refresh',
  /** client → server: (target) /dutyrefresh <id>, a supervisor refreshing another player (ACE command.dutyrefresh.others) */
  refreshOtherRequest: 'bridge:internal:refreshOther',
  /** client → server: a menu read a profile older than RefreshIntervalMs; the server fetches it again (no args) */
  revalidateRequest: 'bridge:internal:revalidate',
  /** server → client: (requestId, outcome) */
  dutyResult: 'bridge:internal:dutyResult',
  /** server → client: (snapshot) whenever the duty state changes */
  dutyState: 'bridge:internal:dutyState',
  /** server → client: (messageKey, params) a message for the player */
  notify: 'bridge:internal:notify',
  /** server → client: (nonce) can this client read the token convar? (see shared/token-exposure.ts) */
  tokenCheck: 'bridge:internal:tokenCheck',
  /** client → server: (nonce, proof) sent only by a client that can read it */
  tokenProof: 'bridge:internal:tokenProof',
} as const;

export const PUBLIC_EVENTS = {
  playerOnDuty: 'bridge:server:playerOnDuty',
  playerOffDuty: 'bridge:server:playerOffDuty',
  playerRankChanged: 'bridge:server:playerRankChanged',
  playerDepartmentRenamed: 'bridge:server:playerDepartmentRenamed',
  profile: 'bridge:client:profile',
  deptData: 'bridge:client:deptData',
  offDuty: 'bridge:client:offDuty',
} as const;

/** A department in GetDutyOptions(): what the player holds there, and how a menu selects it. */
export interface DutyOptionDepartment extends DepartmentSummary {
  /** Marks this department as the one UpdatePlayerDuty(true) goes on duty for. */
  setActive: () => boolean;
}

/** The result of the client export GetDutyOptions(). */
export interface DutyOptions {
  ok: boolean;
  departments: DutyOptionDepartment[];
  selectedDeptId: number | null;
  onDuty: boolean;
  /** When ok is false: why (`loading` until the profile arrived). */
  error?: ProfileErrorCode | 'loading';
  /** When ok is false: the text to show the player. */
  message?: string;
}

/** The client exports (`exports.bridge:Name(...)` from another resource's client script). */
export interface BridgeClientExports {
  IsPlayerOnDuty(): boolean;
  GetDutyOptions(): DutyOptions;
  /**
   * On duty (for the department set with `setActive`, or the player's only one) or off duty. True when the request
   * was sent; the callback receives the outcome.
   */
  UpdatePlayerDuty(status: boolean, callback?: (outcome: DutyOutcome) => void): boolean;
}

/** A player's duty as the server exports and the state bag show it. */
export interface PlayerDuty extends DutySnapshot {
  departmentSlug: string | null;
}

export type OnDutyPlayer = { source: number } & PlayerDuty;

export interface PlayerDepartments {
  ok: boolean;
  departments: DepartmentSummary[];
  error?: string;
}

/**
 * A player's server id, as a number or as the numeric string `getPlayers()` (Lua's `GetPlayers()`) gives. An id of
 * a player who is not connected answers as off duty or refused, never an error.
 */
export type PlayerSource = number | string;

/** The server exports (`exports.bridge:Name(...)` from another resource's server script). */
export interface BridgeServerExports {
  IsPlayerOnDuty(src: PlayerSource): boolean;
  GetPlayerDuty(src: PlayerSource): PlayerDuty;
  GetOnDutyPlayers(departmentId?: number): OnDutyPlayer[];
  GetPlayerDepartments(src: PlayerSource): PlayerDepartments;
  /** For MDTs and admin tools: the same checks and panel calls as the player's own request. */
  SetPlayerDuty(src: PlayerSource, on: boolean, departmentId?: number): Promise<DutyOutcome>;
  RefreshPlayer(src: PlayerSource): Promise<ProfilePayload>;
  /** Players on duty in the department with this slug, or in all departments without one. */
  GetOnDutyCount(slug?: string): number;
  /**
   * The same count over every server of the community (BRIDGE_REDIS_URL); this server's own count without Redis.
   * `GlobalState['bridge:communityOnDutyCount']` holds the same.
   */
  GetCommunityOnDutyCount(slug?: string): number;
}

/** Key of the replicated duty state on `Player(src).state` (server) and `LocalPlayer.state` (client). */
export const DUTY_STATE_BAG_KEY = 'bridge:duty';

/** Key of the replicated duty state, as a type. */
export type DutyStateBagKey = typeof DUTY_STATE_BAG_KEY;

export type DutyStateBag = PlayerDuty;

/** Key of the on-duty counts in `GlobalState` (replicated to every client). */
export const ON_DUTY_COUNT_KEY = 'bridge:onDutyCount';

/** Key of the on-duty counts, as a type. */
export type OnDutyCountKey = typeof ON_DUTY_COUNT_KEY;

/**
 * Key of the community's on-duty counts in `GlobalState`: the same shape as `bridge:onDutyCount`, summed over every
 * server naming the same Redis and panel (BRIDGE_REDIS_URL); without Redis, this server's own counts.
 */
export const COMMUNITY_ON_DUTY_COUNT_KEY = 'bridge:communityOnDutyCount';

/** Key of the community's on-duty counts, as a type. */
export type CommunityOnDutyCountKey = typeof COMMUNITY_ON_DUTY_COUNT_KEY;

/**
 * `GlobalState['bridge:onDutyCount']`: players on duty per department slug (departments with nobody on duty are
 * absent), and `total` for all departments.
 */
export type OnDutyCounts = { total: number } & Record<string, number>;
