import { HttpResponse, http } from 'msw';
import { z } from 'zod';
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

const failure = (status: number, error: string, message: string) =>
  HttpResponse.json({ ok: false, error, message }, { status });

type Route = (input: {
  servers: PlaygroundServers;
  playground: Playground;
  body: unknown;
  id: number;
}) => Promise<object> | object;

/**
 * The dashboard's handle on the playground, under /__playground with the panel's token. `current` is read per
 * request: the routes are served before the simulated servers have started. A player's routes name their server
 * (`/servers/2/players/1/duty`); without it (`/players/1/duty`) they are the first server's.
 */
export function playgroundHandlers(current: () => PlaygroundServers | undefined, token: string) {
  const route =
    (run: Route) =>
    async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      if (!hasBearerToken(request, token)) return failure(401, 'unauthorized', 'send Authorization: Bearer <token>');
      const servers = current();
      if (!servers) return failure(503, 'starting', 'the simulated server is still starting');
      let body: unknown;
      if (request.method === 'POST' && request.headers.get('content-type')?.includes('application/json')) {
        body = await request.json().catch(() => undefined);
      }
      try {
        // Not a number: no server (or player) has that number, and the lookup says so.
        const playground = servers.server(params.server === undefined ? 1 : Number(params.server));
        const answer = await run({ servers, playground, body, id: Number(params.id) });
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

  return [
    http.get(
      at('/state'),
      route(({ servers }) => servers.state()),
    ),
    http.post(
      at('/players'),
      route(async ({ servers, body }) => {
        const { chatId, name, server = 1 } = JoinBodySchema.parse(body);
        return { player: await servers.server(server).join(chatId, name) };
      }),
    ),
    // The community's Redis, as a tester kills it (-9) and starts it again (empty).
    ...(['kill', 'start'] as const).map((action) =>
      http.post(
        at(`/redis/${action}`),
        route(async ({ servers }) => ({ redis: await servers.redisControl(action) })),
      ),
    ),
    // A player's routes, of the first server and of server :server.
    ...['', '/servers/:server'].flatMap((of) => [
      http.delete(
        at(`${of}/players/:id`),
        route(({ playground, id }) => {
          playground.drop(id);
          return {};
        }),
      ),
      http.post(
        at(`${of}/players/:id/department`),
        route(({ playground, body, id }) => {
          playground.selectDepartment(id, DepartmentBodySchema.parse(body).departmentId);
          return {};
        }),
      ),
      http.post(
        at(`${of}/players/:id/duty`),
        route(async ({ playground, body, id }) => ({
          outcome: await playground.duty(id, DutyBodySchema.parse(body).on),
        })),
      ),
      http.post(
        at(`${of}/players/:id/duty-command`),
        route(async ({ playground, body, id }) => ({
          answer: await playground.dutyCommand(id, DutyCommandBodySchema.parse(body).args),
        })),
      ),
      http.post(
        at(`${of}/players/:id/refresh`),
        route(({ playground, id }) => {
          playground.refresh(id);
          return {};
        }),
      ),
    ]),
    http.all(at('/*'), ({ request }) =>
      failure(404, 'not_found', `no playground route ${request.method} ${new URL(request.url).pathname}`),
    ),
  ];
}
