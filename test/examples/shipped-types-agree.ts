// Compiled by `npm run typecheck` and by types.test.ts: every type shipped in types/index.d.ts (hand-written and
// self-contained for consumers) must equal the bridge's own, so the shipped file cannot drift from the code.
import type { DepartmentData, MockDepartmentData, Rank } from '../../shared/contract/index.js';
import type * as Bridge from '../../shared/events.js';
import type * as Shipped from '../../types/index.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type ShippedTypesAgree = [
  Assert<Same<Shipped.Rank, Rank>>,
  Assert<Same<Shipped.DepartmentData, DepartmentData>>,
  Assert<Same<Shipped.MockDepartmentData, MockDepartmentData>>,
  Assert<Same<Shipped.DepartmentSummary, Bridge.DepartmentSummary>>,
  Assert<Same<Shipped.ProfileErrorCode, Bridge.ProfileErrorCode>>,
  Assert<Same<Shipped.ProfilePayload, Bridge.ProfilePayload>>,
  Assert<Same<Shipped.DeptDataPayload, Bridge.DeptDataPayload>>,
  Assert<Same<Shipped.OffDutyReason, Bridge.OffDutyReason>>,
  Assert<Same<Shipped.OffDutyPayload, Bridge.OffDutyPayload>>,
  Assert<Same<Shipped.DutySnapshot, Bridge.DutySnapshot>>,
  Assert<Same<Shipped.DutyErrorCode, Bridge.DutyErrorCode>>,
  Assert<Same<Shipped.DutyOutcome, Bridge.DutyOutcome>>,
  Assert<Same<Shipped.PlayerDuty, Bridge.PlayerDuty>>,
  Assert<Same<Shipped.OnDutyPlayer, Bridge.OnDutyPlayer>>,
  Assert<Same<Shipped.PlayerDepartments, Bridge.PlayerDepartments>>,
  Assert<Same<Shipped.DutyOptionDepartment, Bridge.DutyOptionDepartment>>,
  Assert<Same<Shipped.DutyOptions, Bridge.DutyOptions>>,
  Assert<Same<Shipped.BridgeServerEvents, Bridge.BridgeServerEvents>>,
  Assert<Same<Shipped.BridgeClientEvents, Bridge.BridgeClientEvents>>,
  Assert<Same<Shipped.BridgeClientExports, Bridge.BridgeClientExports>>,
  Assert<Same<Shipped.BridgeServerExports, Bridge.BridgeServerExports>>,
  Assert<Same<Shipped.DutyStateBag, Bridge.DutyStateBag>>,
  Assert<Same<Shipped.DutyStateBagKey, typeof Bridge.DUTY_STATE_BAG_KEY>>,
];
