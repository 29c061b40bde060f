import { NEVER, of } from 'rxjs';
import type { DutyOutcome } from '../../shared/events.js';
import type { Duty } from './duty.js';
import { OFF_DUTY } from './duty-model.js';

const NOT_CONFIGURED: DutyOutcome = {
  ok: false,
  error: 'not_configured',
  message: 'the duty system is not configured',
};

/** The duty of a bridge without its convars: nobody is ever on duty, and every request says why. */
export const NOT_CONFIGURED_DUTY: Duty = {
  dutyChanges$: NEVER,
  dutyState$: () => of(OFF_DUTY),
  state: () => OFF_DUTY,
  onDutyPlayers: () => [],
  submit: () => {},
  request: () => Promise.resolve(NOT_CONFIGURED),
  leave: () => Promise.resolve(),
  forget: () => {},
  forceOffNow: () => {},
  endAll: () => {},
  footprint: () => ({}),
  stop: () => {},
};
