import { DepartmentsParamsSchema, DepartmentsResponseSchema } from '../../../shared/contract';
import type { MockDepartment, MockUser } from '../../data/schema';
import type { JsonBody } from '../../http/panel-exchange';
import { apiErrorAnswer, contractJson, jsonAnswer, malformedChatIdAnswer } from '../../http/responses';
import type { PanelStore } from '../../store';
import type { ApiRoute } from './pipeline';

/** GET /api/leo/user/:chatId/departments */
export function departmentsRoute(store: PanelStore): ApiRoute {
  // The answer is the user record's with the department list's (and the panel's guild, which never changes). A
  // record is replaced, never changed, when roles change or the panel resets, and so is the list when a department
  // is renamed: each answer is checked against the contract and serialized once, not at every request of a load test.
  const answers = new WeakMap<readonly MockDepartment[], WeakMap<MockUser, JsonBody>>();
  const answerOf = (user: MockUser) => {
    const list = store.users.departments;
    let ofList = answers.get(list);
    if (!ofList) {
      ofList = new WeakMap();
      answers.set(list, ofList);
    }
    let answer = ofList.get(user);
    if (!answer) {
      answer = contractJson(DepartmentsResponseSchema, {
        ok: true,
        user: store.users.profileOf(user),
        departments: store.users.departmentsOf(user),
      });
      ofList.set(user, answer);
    }
    return answer;
  };
  return async (_request, params) => {
    const parsed = DepartmentsParamsSchema.safeParse(params);
    if (!parsed.success) return malformedChatIdAnswer();
    const user = store.users.find(parsed.data.chatId);
    if (!user) return apiErrorAnswer('user_not_found', 'no panel user has this chat id');
    return jsonAnswer(answerOf(user));
  };
}
