import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DutyChange } from '../../../../server/duty/duty-model.js';
import {
  applyUpdate,
  type DutyModel,
  type DutyState,
  EMPTY_DUTY_MODEL,
  entriesInOrder,
  OFF_DUTY,
} from '../../../../server/duty/duty-model.js';

const state = (departmentId: number): DutyState => ({
  onDuty: true,
  departmentId,
  departmentSlug: `dept${departmentId}`,
  departmentName: `Department ${departmentId}`,
  rankId: 1,
  since: 0,
});

describe('the duty model', () => {
  it('lists the sessions on duty as its sessions do, in their order, after any run of transitions and forgets', () => {
    const step = fc.record({ src: fc.integer({ min: 1, max: 40 }), to: fc.integer({ min: -1, max: 3 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        let model: DutyModel = EMPTY_DUTY_MODEL;
        for (const { src, to } of steps) {
          if (to < 0) {
            model = applyUpdate(model, { kind: 'forget', src });
            continue;
          }
          const previous = model.sessions.get(src) ?? OFF_DUTY;
          const next = to === 0 ? OFF_DUTY : state(to);
          const change = { kind: 'on', src, chatId: undefined, previous, next } as unknown as DutyChange;
          const before = model.onDuty;
          model = applyUpdate(model, { kind: 'transition', change });
          // Unchanged when nobody on duty changed: the exports keep what they built from it.
          if (!previous.onDuty && !next.onDuty) expect(model.onDuty).toBe(before);
        }
        expect(model.onDuty).toEqual(entriesInOrder(model.sessions, (session) => session.onDuty));
      }),
    );
  });
});
