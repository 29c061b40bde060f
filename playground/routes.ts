import { HttpResponse, http } from 'msw';
import { z } from 'zod';
import { routeMatcher } from '../mock-panel/handlers/route-predicate.js';
import { fetchBodyView } from '../mock-panel/http/fetch-request-view.js';
import { readJsonObject } from '../mock-panel/http/json-body.js';
import { responseOf, unauthorizedAnswer } from '../mock-panel/http/responses.js';
import { hasBearerToken, routePredicate } from '../mock-panel/index.js';
import { ChatIdSchema } from '../shared/contract/index.js';
import { type Playground, PlaygroundError } from './playground.js';
import type { PlaygroundServers } from './playground-servers.js';

export const PLAYGROUND_PREFIX = '/__playground';

const JoinBodySchema = z.object({
  chatId: ChatIdSchema,
  name: z.string().max(64).optional(),
  /** Which server the player joins (from 1); the first when absent. */
  server: z.int().min(1).optional(),
});
const DepartmentBodySchema = z.object({ departmentId: z.int().min(1) });
const DutyBodySchema = z.object({ on: z.boolean() });
// What follows the command's name, as a player types it: one line of text, which must not start another command.
const DutyCommandBodySchema = z.object({
  args: z
    .string()
    .max(64)
    .refine((args) => ![...args].some((char) => char < ' ' || char === '\u007f' || char === ';'), {
      message: 'one line of printable text without ;',
    }),
});

const STATUS: Record<PlaygroundError['code'], number> = {
  player_not_found: 404,
  department_not_found: 404,
  server_not_found: 404,
  no_redis: 409,
  no_answer: 504,
};

/** The protection space of the playground's routes in their 401 challenge (the panel's token guards them too). */
const PLAYGROUND_REALM = '__playground';

const failure = (status: number, error: string, message: string, headers: Record<string, string> = {}) =>
  HttpResponse.json({ ok: false, error, message }, { status, headers });

type Run = (input: {
  servers: PlaygroundServers;
  playground: Playground;
  body: unknown;
  id: number;
}) => Promise<object> | object;

interface PlaygroundRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Under PLAYGROUND_PREFIX; `:id` is a player's server id, `:server` a simulated server's number (from 1). */
  template: string;
  /** Whether the route reads a JSON body (and answers 415 to another kind). */
  json: boolean;
  run: Run;
}

const PLAYER_ROUTES: PlaygroundRoute[] = [
  {
    method: 'DELETE',
    template: '/players/:id',
    json: false,
    run: ({ playground, id }) => {
      playground.drop(id);
      return {};
    },
  },
  {
    method: 'POST',
    template: '/players/:id/department',
    json: true,
    run: ({ playground, body, id }) => {
      playground.selectDepartment(id, DepartmentBodySchema.parse(body).departmentId);
      return {};
    },
  },
  {
    method: 'POST',
    template: '/players/:id/duty',
    json: true,
    run: async ({ playground, body, id }) => ({ outcome: await playground.duty(id, DutyBodySchema.parse(body).on) }),
  },
  {
    method: 'POST',
    template: '/players/:id/duty-command',
    json: true,
    run: async ({ playground, body, id }) => ({
      answer: await playground.dutyCommand(id, DutyCommandBodySchema.parse(body).args),
    }),
  },
  {
    method: 'POST',
    template: '/players/:id/refresh',
    json: false,
    run: ({ playground, id }) => {
      playground.refresh(id);
      return {};
    },
  },
];

const ROUTES: PlaygroundRoute[] = [
  { method: 'GET', template: '/state', json: false, run: ({ servers }) => servers.state() },
  {
    method: 'POST',
    template: '/players',
    json: true,
    run: async ({ servers, body }) => {
      const { chatId, name, server = 1 } = JoinBodySchema.parse(body);
      return { player: await servers.server(server).join(chatId, name) };
    },
  },
  // The community's Redis, as a tester kills it (-9) and starts it again (empty).
  ...(['kill', 'start'] as const).map(
    (action): PlaygroundRoute => ({
      method: 'POST',
      template: `/redis/${action}`,
      json: false,
      run: async ({ servers }) => ({ redis: await servers.redisControl(action) }),
    }),
  ),
  // A player's routes, of the first server and of server :server.
  ...PLAYER_ROUTES,
  ...PLAYER_ROUTES.map((route) => ({ ...route, template: `/servers/:server${route.template}` })),
];

const HANDLER_OF = { GET: http.get, POST: http.post, DELETE: http.delete } as const;

/**
 * The dashboard's handle on the playground, under /__playground with the panel's token. `current` is read per
 * request: the routes are served before the simulated servers have started. A player's routes name their server
 * (`/servers/2/players/1/duty`); without it (`/players/1/duty`) they are the first server's. They speak HTTP as the mock panel does:
 * 401 with a bearer challenge, 415 for a body that is not JSON, 405 with `Allow` for a known route asked with another
 * method (without the token, like the panel's), 404 for anything else.
 */
export function playgroundHandlers(current: () => PlaygroundServers | undefined, token: string) {
  const serve =
    ({ run, json }: PlaygroundRoute) =>
    async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      if (!hasBearerToken(request, token)) {
        return responseOf(unauthorizedAnswer(request.headers.get('authorization'), PLAYGROUND_REALM));
      }
      const servers = current();
      if (!servers) return failure(503, 'starting', 'the simulated server is still starting');
      const rawId = params.id;
      if (rawId !== undefined && !/^[0-9]+$/.test(rawId)) {
        return failure(404, 'player_not_found', `no player '${rawId}': a player is their server id, a whole number`);
      }
      let body: unknown;
      if (json) {
        const read = await readJsonObject(fetchBodyView(request));
        if (!read.ok) return responseOf(read.answer);
        body = read.value;
      }
      try {
        // Not a number: no server has that number, and the lookup says so.
        const playground = servers.server(params.server === undefined ? 1 : Number(params.server));
        const answer = await run({ servers, playground, body, id: Number(rawId) });
        return HttpResponse.json({ ok: true, ...answer });
      } catch (error) {
        if (error instanceof z.ZodError) {
          const issue = error.issues[0];
          return failure(400, 'invalid_request', `${issue?.path.join('.') || 'body'}: ${issue?.message}`);
        }
        if (error instanceof PlaygroundError) return failure(STATUS[error.code], error.code, error.message);
        return failure(500, 'internal_error', error instanceof Error ? error.message : String(error));
      }
    };
  const at = (template: string) => routePredicate('*', `${PLAYGROUND_PREFIX}${template}`);
  const matchers = ROUTES.map((route) => ({
    method: route.method,
    matches: routeMatcher('*', `${PLAYGROUND_PREFIX}${route.template}`),
  }));

  return [
    ...ROUTES.map((route) => HANDLER_OF[route.method](at(route.template), serve(route))),
    http.all(at('/*'), ({ request }) => {
      const url = new URL(request.url);
      const allow = matchers.filter(({ matches }) => matches(url)).map(({ method }) => method);
      if (allow.length > 0) {
        return failure(405, 'method_not_allowed', `${url.pathname} takes ${allow.join(', ')}, not ${request.method}`, {
          Allow: allow.join(', '),
        });
      }
      return failure(404, 'not_found', `no playground route ${request.method} ${url.pathname}`);
    }),
  ];
}
