import { DepartmentsParamsSchema, DepartmentsResponseSchema } from '../../../shared/contract';
import type { MockUser } from '../../data/schema';
import type { JsonBody } from '../../http/panel-exchange';
import { apiErrorAnswer, contractJson, jsonAnswer } from '../../http/responses';
import type { PanelStore } from '../../store';
import type { ApiRoute } from './pipeline';

/** GET /api/leo/user/:chatId/departments */
export function departmentsRoute(store: PanelStore): ApiRoute {
  // The answer is the user record's (with the seed's departments and the panel's guild, which never change), and a
  // record is replaced, never changed, when roles change or the panel resets: each is checked against the contract
  // and serialized once, not at every request of a load test.
  const answers = new WeakMap<MockUser, JsonBody>();
  const answerOf = (user: MockUser) => {
    let answer = answers.get(user);
    if (!answer) {
      answer = contractJson(DepartmentsResponseSchema, {
        ok: true,
        user: store.users.profileOf(user),
        departments: store.users.departmentsOf(user),
      });
      answers.set(user, answer);
    }
    return answer;
  };
  return async (_request, params) => {
    const parsed = DepartmentsParamsSchema.safeParse(params);
    if (!parsed.success) return apiErrorAnswer('malformed_chat_id', 'chatId must be 18 to 19 ASCII digits');
    const user = store.users.find(parsed.data.chatId);
    if (!user) return apiErrorAnswer('user_not_found', 'no panel user has this chat id');
    return jsonAnswer(answerOf(user));
  };
}
