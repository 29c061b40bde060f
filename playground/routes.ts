import { HttpResponse, http } from 'msw';
import { z } from 'zod';
import { hasBearerToken, routePredicate } from '../mock-panel/index.js';
import { ChatIdSchema } from '../shared/contract/index.js';
import { type Playground, PlaygroundError } from './playground.js';

export const PLAYGROUND_PREFIX = '/__playground';

const JoinBodySchema = z.object({ chatId: ChatIdSchema, name: z.string().max(64).optional() });
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
  no_answer: 504,
};

const failure = (status: number, error: string, message: string) =>
  HttpResponse.json({ ok: false, error, message }, { status });

type Route = (input: { playground: Playground; body: unknown; id: number }) => Promise<object> | object;

/**
 * The dashboard's handle on the playground, under /__playground with the panel's token. `current` is read per
 * request: the routes are served before the simulated server has started.
 */
export function playgroundHandlers(current: () => Playground | undefined, token: string) {
  const route =
    (run: Route) =>
    async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      if (!hasBearerToken(request, token)) return failure(401, 'unauthorized', 'send Authorization: Bearer <token>');
      const playground = current();
      if (!playground) return failure(503, 'starting', 'the simulated server is still starting');
      let body: unknown;
      if (request.method === 'POST' && request.headers.get('content-type')?.includes('application/json')) {
        body = await request.json().catch(() => undefined);
      }
      try {
        // Not a number: no player has that id, and the lookup says so.
        const answer = await run({ playground, body, id: Number(params.id) });
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
      route(({ playground }) => playground.state()),
    ),
    http.post(
      at('/players'),
      route(async ({ playground, body }) => {
        const { chatId, name } = JoinBodySchema.parse(body);
        return { player: await playground.join(chatId, name) };
      }),
    ),
    http.delete(
      at('/players/:id'),
      route(({ playground, id }) => {
        playground.drop(id);
        return {};
      }),
    ),
    http.post(
      at('/players/:id/department'),
      route(({ playground, body, id }) => {
        playground.selectDepartment(id, DepartmentBodySchema.parse(body).departmentId);
        return {};
      }),
    ),
    http.post(
      at('/players/:id/duty'),
      route(async ({ playground, body, id }) => ({
        outcome: await playground.duty(id, DutyBodySchema.parse(body).on),
      })),
    ),
    http.post(
      at('/players/:id/duty-command'),
      route(async ({ playground, body, id }) => ({
        answer: await playground.dutyCommand(id, DutyCommandBodySchema.parse(body).args),
      })),
    ),
    http.post(
      at('/players/:id/refresh'),
      route(({ playground, id }) => {
        playground.refresh(id);
        return {};
      }),
    ),
    http.all(at('/*'), ({ request }) =>
      failure(404, 'not_found', `no playground route ${request.method} ${new URL(request.url).pathname}`),
    ),
  ];
}
