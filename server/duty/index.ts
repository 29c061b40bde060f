export type { Drop, Duty } from './duty.js';
export type { CallFence, DutyCall, FenceGate, OutboxRecord } from './duty-call.js';
export type { DutyChange } from './duty-change.js';
export type { HeldShiftEnd } from './duty-interpreter.js';
export { DutyService } from './duty-service.js';
export type { DutyState } from './duty-state.js';
export { OFF_DUTY, shiftOf, snapshotOf } from './duty-state.js';
export type { DutyEffect } from './effects.js';
export {
  dutyEffect,
  emitClientDutyEvents,
  emitServerDutyEvents,
  logDutyChanges,
  onDutyByDepartment,
  pollOnDutyProfiles,
  publishOnDutyCounts,
  subscribeDutyEffects,
  tellIntegrations,
} from './effects.js';
export { DutyStore } from './model/duty-store.js';
export { NOT_CONFIGURED_DUTY } from './not-configured-duty.js';
export { closeEndedShifts, endDutiesLeftOpen, OpenDutyLedger, recordOpenDuties } from './open-duty-ledger.js';
export type { OutboxStats } from './outbox.js';
export { Outbox } from './outbox.js';
