export type { Drop, Duty } from './duty.js';
export { NOT_CONFIGURED_DUTY } from './duty.js';
export type { CallFence, DutyCall, FenceGate, OutboxRecord } from './duty-call.js';
export type { HeldShiftEnd } from './duty-interpreter.js';
export { DutyStore } from './duty-interpreter.js';
export type { DutyChange, DutyState } from './duty-model.js';
export { OFF_DUTY, shiftOf, snapshotOf } from './duty-model.js';
export { DutyService } from './duty-service.js';
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
export { closeEndedShifts, endDutiesLeftOpen, OpenDutyLedger, recordOpenDuties } from './open-duty-ledger.js';
export type { OutboxStats } from './outbox.js';
export { Outbox } from './outbox.js';
