// Types of the bridge's exports, events and state bag, for resources written in TypeScript.
// Self-contained on purpose (no imports): copy it, or point a tsconfig path at it. How: types/README.md.
// test/examples/shipped-types-agree.ts proves every type here equals the bridge's own (shared/events.ts).

/** A player's rank within a department. */
export type Rank = { id: number; name: string };

// The shape the mock panel sends as department data, for code that checks a panel's data before it uses it.
export type DepartmentVehicle = { model: string; label: string };

/** A clothing component (slot = component id) or prop (slot = anchor id). */
export type ClothingPiece = { slot: number; drawable: number; texture: number };

export type DepartmentUniform = {
  name: string;
  /** The freemode ped the uniform is made for; absent when it fits both. */
  pedModel?: 'mp_m_freemode_01' | 'mp_f_freemode_01';
  components: ClothingPiece[];
  props: ClothingPiece[];
};

export type DepartmentEquipment = { item: string; label: string; count: number };

/** Department data as the mock panel sends it: `{ callsignPrefix?, vehicles, uniforms, equipment, ... }`. */
export type MockDepartmentData = {
  callsignPrefix?: string;
  vehicles: DepartmentVehicle[];
  uniforms: DepartmentUniform[];
  equipment: DepartmentEquipment[];
  [key: string]: unknown;
};

/**
 * A department's data exactly as the panel sent it (`{}` when it sent none). The spec does not define it and the
 * bridge does not check it: check what you read (the mock panel sends MockDepartmentData).
 */
export type DepartmentData = unknown;

/** A department as the game sees it, with the player's rank there. */
export type DepartmentSummary = { id: number; slug: string; name: string; rank: Rank };

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
export type DeptDataPayload = { departmentId: number; slug: string; name: string; rank: Rank; data: DepartmentData };

/** `replaced`: the same chat account went on duty in another session (one duty per account). */
export type OffDutyReason = 'request' | 'department_removed' | 'dropped' | 'resource_stop' | 'admin' | 'replaced';

/** `bridge:client:offDuty`. */
export type OffDutyPayload = { departmentId: number; reason: OffDutyReason };

export type DutySnapshot = {
  onDuty: boolean;
  departmentId: number | null;
  rankId: number | null;
  /** Unix epoch milliseconds when the current duty began. */
  since: number | null;
};

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

/** A player's duty as the server exports and the `bridge:duty` state bag show it. */
export type PlayerDuty = DutySnapshot & { departmentSlug: string | null };

export type OnDutyPlayer = { source: number } & PlayerDuty;

export type PlayerDepartments = { ok: boolean; departments: DepartmentSummary[]; error?: string };

/** A department in GetDutyOptions(). */
export type DutyOptionDepartment = DepartmentSummary & {
  /** Marks this department as the one UpdatePlayerDuty(true) goes on duty for. */
  setActive: () => boolean;
};

/** The result of GetDutyOptions(). */
export type DutyOptions = {
  ok: boolean;
  departments: DutyOptionDepartment[];
  selectedDeptId: number | null;
  onDuty: boolean;
  /** When ok is false: why (`loading` until the profile arrived). */
  error?: ProfileErrorCode | 'loading';
  /** When ok is false: the text to show the player. */
  message?: string;
};

/** Server events (local: listen with `on`), each with the arguments a listener receives. */
export interface BridgeServerEvents {
  'bridge:server:playerOnDuty': [source: number, departmentId: number, rankId: number];
  /** Also fired when a player on duty disconnects or the bridge stops. */
  'bridge:server:playerOffDuty': [source: number];
  /** A player on duty got another rank in the panel (found by the background revalidation or /dutyrefresh); they stay on duty with it. */
  'bridge:server:playerRankChanged': [source: number, departmentId: number, rankId: number];
}

/** Client events (from the server: listen with `onNet`), each with the arguments a listener receives. */
export interface BridgeClientEvents {
  'bridge:client:profile': [profile: ProfilePayload];
  'bridge:client:deptData': [department: DeptDataPayload];
  'bridge:client:offDuty': [info: OffDutyPayload];
}

/** `exports.bridge` in a client script. */
export type BridgeClientExports = {
  IsPlayerOnDuty(): boolean;
  GetDutyOptions(): DutyOptions;
  /** True when the request was sent; the callback receives the outcome. */
  UpdatePlayerDuty(status: boolean, callback?: (outcome: DutyOutcome) => void): boolean;
};

/** `exports.bridge` in a server script. */
export type BridgeServerExports = {
  IsPlayerOnDuty(src: number): boolean;
  GetPlayerDuty(src: number): PlayerDuty;
  GetOnDutyPlayers(departmentId?: number): OnDutyPlayer[];
  GetPlayerDepartments(src: number): PlayerDepartments;
  /** For MDTs and admin tools: the same checks and panel calls as the player's own request. */
  SetPlayerDuty(src: number, on: boolean, departmentId?: number): Promise<DutyOutcome>;
  RefreshPlayer(src: number): Promise<ProfilePayload>;
};

/** Key of the replicated duty state on `Player(src).state` (server) and `LocalPlayer.state` (client). */
export type DutyStateBagKey = 'bridge:duty';

export type DutyStateBag = PlayerDuty;
