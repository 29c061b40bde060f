import type { DutyAction, DutyAnswer, DutyOffBody, DutyOnBody } from '../../shared/contract/index.js';

const place = (departmentId: number | null | undefined, rankId?: number | null) =>
  `department ${departmentId ?? 'none'}${rankId === undefined ? '' : ` rank ${rankId ?? 'none'}`}`;

/**
 * Why a duty answer contradicts the call it answers, or undefined when it does not. Only a duty state the panel
 * sent is compared, and only the fields it sent: `{ ok: true }` alone is a plain yes. An `off` that names a
 * department ends only a session there, so an answer still on duty elsewhere (a late retry after a switch) agrees.
 */
export function dutyAnswerContradiction(
  action: DutyAction,
  body: DutyOnBody | DutyOffBody,
  answer: DutyAnswer,
): string | undefined {
  const duty = answer.duty;
  if (!duty) return undefined;
  if (action === 'on') {
    const { departmentId, rankId } = body as DutyOnBody;
    const otherDepartment = typeof duty.departmentId === 'number' && duty.departmentId !== departmentId;
    const otherRank = typeof duty.rankId === 'number' && duty.rankId !== rankId;
    if (duty.onDuty === false) return `its answer says off duty where ${place(departmentId, rankId)} was asked`;
    if (otherDepartment || otherRank) {
      return `its answer names ${place(duty.departmentId, duty.rankId)} where ${place(departmentId, rankId)} was asked`;
    }
    return undefined;
  }
  const { departmentId } = body as DutyOffBody;
  if (duty.onDuty === true && (departmentId === undefined || duty.departmentId === departmentId)) {
    return `its answer says still on duty in ${place(duty.departmentId)} where off duty was asked`;
  }
  return undefined;
}
