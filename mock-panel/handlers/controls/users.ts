import { http } from 'msw';
import type { PanelControls } from '../../controls/panel-controls';
import {
  DeleteUserResponseSchema,
  PutUserBodySchema,
  PutUserResponseSchema,
  RolesBodySchema,
  RolesResponseSchema,
} from '../../controls/schemas';
import { apiError, respond } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routePredicate } from '../route-predicate';
import { CONTROL_PREFIX, chatIdParam, controlRoute, readControlBody } from './control-route';

/**
 * PUT    /__mock/users/:chatId         `{ name, roles?, guildId? }`: a user the panel did not know, or a new record
 *                                      for one it knows (201 when added, 200 when replaced)
 * PUT    /__mock/users/:chatId/roles   `{ roles: string[], guildId?: string }`: what /syncme or "Refresh roles" do
 * DELETE /__mock/users/:chatId         what deleting or banning the account does: the panel no longer knows it
 */
export function userHandlers(context: PanelContext, controls: PanelControls, origin: string) {
  return [
    http.put(
      routePredicate(origin, `${CONTROL_PREFIX}/users/:chatId`),
      controlRoute(context, async ({ request, params }) => {
        const chatId = chatIdParam(params.chatId);
        if (!chatId.ok) return chatId.response;
        const body = await readControlBody(request, PutUserBodySchema);
        if (!body.ok) return body.response;
        const put = controls.putUser(chatId.chatId, body.value);
        return respond(PutUserResponseSchema, { ok: true, ...put }, put.created ? 201 : 200);
      }),
    ),
    http.put(
      routePredicate(origin, `${CONTROL_PREFIX}/users/:chatId/roles`),
      controlRoute(context, async ({ request, params }) => {
        const chatId = chatIdParam(params.chatId);
        if (!chatId.ok) return chatId.response;
        const body = await readControlBody(request, RolesBodySchema);
        if (!body.ok) return body.response;
        const change = controls.setRoles(chatId.chatId, body.value.roles, body.value.guildId);
        if (!change) return apiError('user_not_found', 'no panel user has this chat id');
        return respond(RolesResponseSchema, { ok: true, ...change });
      }),
    ),
    http.delete(
      routePredicate(origin, `${CONTROL_PREFIX}/users/:chatId`),
      controlRoute(context, async ({ params }) => {
        const chatId = chatIdParam(params.chatId);
        if (!chatId.ok) return chatId.response;
        const deletion = controls.deleteUser(chatId.chatId);
        if (!deletion) return apiError('user_not_found', 'no panel user has this chat id');
        return respond(DeleteUserResponseSchema, { ok: true, ...deletion });
      }),
    ),
  ];
}
