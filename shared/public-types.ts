// What a game resource written in TypeScript may import: the entry from which types/index.d.ts is generated
// (by tsup.config.ts in npm run build). Only types: the bridge's runtime values stay its own.
export type {
  ClothingPiece,
  DepartmentData,
  DepartmentEquipment,
  DepartmentUniform,
  DepartmentVehicle,
  MockDepartmentData,
  Rank,
} from './contract/department-types.js';
export type {
  BridgeClientEvents,
  BridgeClientExports,
  BridgeServerEvents,
  BridgeServerExports,
  DepartmentSummary,
  DeptDataPayload,
  DutyErrorCode,
  DutyOptionDepartment,
  DutyOptions,
  DutyOutcome,
  DutySnapshot,
  DutyStateBag,
  DutyStateBagKey,
  OffDutyPayload,
  OffDutyReason,
  OnDutyPlayer,
  PlayerDepartments,
  PlayerDuty,
  ProfileErrorCode,
  ProfilePayload,
} from './events.js';
