import {
  DutyOffBodySchema,
  type DutyOnBody,
  DutyOnBodySchema,
  DutyParamsSchema,
  DutyResponseSchema,
} from '../../../shared/contract';
import { fieldError } from '../../http/field-error';
import { readJsonObject } from '../../http/json-body';
import type { HttpAnswer } from '../../http/panel-exchange';
import { apiErrorAnswer, contractAnswer } from '../../http/responses';
import type { PanelStore } from '../../store';
import type { ApiRoute } from './pipeline';

/** POST /api/leo/duty/:action */
export function dutyRoute(store: PanelStore): ApiRoute {
  return async (request, params) => {
    const action = DutyParamsSchema.safeParse(params);
    if (!action.success) return apiErrorAnswer('invalid_action', 'the duty action is `on` or `off`');
    const body = await readJsonObject(request);
    if (!body.ok) return body.answer;
    return action.data.action === 'on' ? dutyOn(store, body.value) : dutyOff(store, body.value);
  };
}

function dutyOn(store: PanelStore, body: Record<string, unknown>): HttpAnswer {
  const parsed = DutyOnBodySchema.safeParse(body);
  if (!parsed.success) return fieldError(DutyOnBodySchema, body, parsed.error);
  const refusal = refuseDutyOn(store, parsed.data);
  if (refusal) return refusal;
  return contractAnswer(DutyResponseSchema, { ok: true, ...store.duty.goOn(parsed.data) });
}

/** The panel checks the department and rank against the user's own roles; it never trusts the caller's claim. */
function refuseDutyOn(store: PanelStore, body: DutyOnBody): HttpAnswer | undefined {
  const user = store.users.find(body.chatId);
  if (!user) return apiErrorAnswer('user_not_found', 'no panel user has this chat id');
  if (!store.users.department(body.departmentId)) {
    return apiErrorAnswer('department_not_found', `the panel has no department ${body.departmentId}`);
  }
  const membership = store.users.departmentsOf(user).find((department) => department.id === body.departmentId);
  if (!membership) return apiErrorAnswer('not_member', `the user is not a member of department ${body.departmentId}`);
  if (membership.rank.id !== body.rankId) {
    return apiErrorAnswer(
      'rank_mismatch',
      `the user's rank in department ${body.departmentId} is ${membership.rank.id}`,
    );
  }
  return undefined;
}

function dutyOff(store: PanelStore, body: Record<string, unknown>): HttpAnswer {
  const parsed = DutyOffBodySchema.safeParse(body);
  if (!parsed.success) return fieldError(DutyOffBodySchema, body, parsed.error);
  if (!store.users.find(parsed.data.chatId)) return apiErrorAnswer('user_not_found', 'no panel user has this chat id');
  return contractAnswer(DutyResponseSchema, {
    ok: true,
    ...store.duty.goOff(parsed.data.chatId, parsed.data.departmentId),
  });
}
