import { DepartmentsParamsSchema, DepartmentsResponseSchema } from '../../../shared/contract';
import { apiError, respond } from '../../http/responses';
import type { PanelStore } from '../../store';
import type { ApiRoute } from './pipeline';

/** GET /api/leo/user/:chatId/departments */
export function departmentsRoute(store: PanelStore): ApiRoute {
  return async ({ params }) => {
    const parsed = DepartmentsParamsSchema.safeParse(params);
    if (!parsed.success) return apiError('malformed_chat_id', 'chatId must be 18 to 19 ASCII digits');
    const user = store.users.find(parsed.data.chatId);
    if (!user) return apiError('user_not_found', 'no panel user has this chat id');
    return respond(DepartmentsResponseSchema, {
      ok: true,
      user: store.users.profileOf(user),
      departments: store.users.departmentsOf(user),
    });
  };
}
