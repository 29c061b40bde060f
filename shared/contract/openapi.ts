import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { DepartmentsParamsSchema, DepartmentsResponseSchema } from './departments';
import { DutyOffBodySchema, DutyOnBodySchema, DutyResponseSchema } from './duty';
import { ERROR_CATALOGUE, ErrorBodySchema, type ErrorCode } from './errors';
import { asFullZod } from './full-zod-schema';
import { ChallengeHeaderSchema } from './http-headers';
import { API_PREFIX, dutyPath, ROUTES } from './paths';
import { PANEL_RATE_LIMIT, RateLimitHeadersSchema, RetryAfterHeaderSchema } from './rate-limit';

// Kept out of index.ts on purpose: the bridge bundle imports the contract, and the generator is a dev-only tool.

const CONTRACT_VERSION = '1.0.0';

function toOpenApiPath(route: string): string {
  return route.replace(/:([A-Za-z]+)/g, '{$1}');
}

/**
 * Publishes each header once under components/headers and returns references to them: every response carries
 * the rate-limit headers, and inlining them would repeat them some thirty times.
 */
function registerHeaders(registry: OpenAPIRegistry, headers: z.core.$ZodObject): Record<string, { $ref: string }> {
  return Object.fromEntries(
    Object.entries(headers._zod.def.shape).map(([name, schema]) => {
      // Header values are strings: only the pattern and the example carry over from the zod schema.
      const { description, pattern, example } = z.toJSONSchema(schema) as Record<string, string>;
      const component = registry.registerComponent('headers', name, {
        description: description ?? '',
        required: !z.safeParse(schema, undefined).success,
        schema: { type: 'string', ...(pattern && { pattern }), ...(example && { example }) },
      });
      return [name, component.ref];
    }),
  );
}

function buildRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  const rateLimitHeaders = registerHeaders(registry, RateLimitHeadersSchema);
  const tooManyHeaders = { ...rateLimitHeaders, ...registerHeaders(registry, RetryAfterHeaderSchema) };
  const challengeHeaders = { ...rateLimitHeaders, ...registerHeaders(registry, ChallengeHeaderSchema) };

  const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
  const jsonRequest = (schema: z.ZodType) => ({ body: { required: true, content: json(schema) } });
  const okResponse = (description: string, schema: z.ZodType): ResponseConfig => ({
    description,
    headers: rateLimitHeaders,
    content: json(schema),
  });
  const dutyStateResponse = okResponse('The duty state now in effect.', asFullZod(DutyResponseSchema));
  /** An error response whose `error` is narrowed to the codes this endpoint can answer with that status. */
  const errorResponse = (codes: [ErrorCode, ...ErrorCode[]], headers = rateLimitHeaders): ResponseConfig => ({
    description: codes.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].when}.`).join(' '),
    headers,
    content: json(asFullZod(ErrorBodySchema).extend({ error: z.enum(codes) })),
  });
  const commonErrors = {
    401: errorResponse(['unauthorized'], challengeHeaders),
    429: errorResponse(['rate_limited'], tooManyHeaders),
    500: errorResponse(['internal_error']),
    503: errorResponse(['service_unavailable']),
  };
  const dutyErrors = (bodyCodes: [ErrorCode, ...ErrorCode[]], notFoundCodes: [ErrorCode, ...ErrorCode[]]) => ({
    400: errorResponse(bodyCodes),
    ...commonErrors,
    404: errorResponse(notFoundCodes),
    413: errorResponse(['payload_too_large']),
    415: errorResponse(['unsupported_media_type']),
  });
  const bearer = registry.registerComponent('securitySchemes', 'bearerToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The panel setting `LEO_API_TOKEN` (the bridge convar `BRIDGE_LEO_API_TOKEN`).',
  });
  const security = [{ [bearer.name]: [] }];

  registry.registerPath({
    method: 'get',
    path: toOpenApiPath(ROUTES.departments),
    operationId: 'getUserDepartments',
    summary: "A player's departments and ranks",
    security,
    request: { params: asFullZod(DepartmentsParamsSchema) },
    responses: {
      200: okResponse(
        "The user and their departments (empty when they have none), each with the user's rank.",
        asFullZod(DepartmentsResponseSchema),
      ),
      ...commonErrors,
      404: errorResponse(['malformed_chat_id', 'user_not_found']),
    },
  });

  registry.registerPath({
    method: 'post',
    path: dutyPath('on'),
    operationId: 'dutyOn',
    summary: 'Put a player on duty',
    description:
      'Idempotent: repeating the state in effect answers 200 with `changed: false`. Going on duty for another ' +
      'department (or with a new rank) ends the current session and starts a new one. Any action other than ' +
      '`on` or `off` answers 400 `invalid_action`.',
    security,
    request: jsonRequest(asFullZod(DutyOnBodySchema)),
    responses: {
      200: dutyStateResponse,
      ...dutyErrors(
        [
          'invalid_action',
          'invalid_json',
          'invalid_chat_id',
          'invalid_department_id',
          'invalid_rank_id',
          'invalid_server_id',
          'invalid_player_name',
          'not_member',
          'rank_mismatch',
        ],
        ['user_not_found', 'department_not_found'],
      ),
    },
  });

  registry.registerPath({
    method: 'post',
    path: dutyPath('off'),
    operationId: 'dutyOff',
    summary: 'Take a player off duty',
    description:
      'Idempotent: a player already off duty answers 200 with `changed: false`. With `departmentId`, only a ' +
      'session in that department is ended.',
    security,
    request: jsonRequest(asFullZod(DutyOffBodySchema)),
    responses: {
      200: dutyStateResponse,
      ...dutyErrors(['invalid_action', 'invalid_json', 'invalid_chat_id', 'invalid_department_id'], ['user_not_found']),
    },
  });

  return registry;
}

/** The `/api/leo` contract as an OpenAPI 3.1 document. */
export function buildOpenApiDocument() {
  // Responses narrow `error` per status; the full body and its code catalogue are published once as components.
  const definitions = [...buildRegistry().definitions, { type: 'schema' as const, schema: asFullZod(ErrorBodySchema) }];
  return new OpenApiGeneratorV31(definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Community panel /api/leo',
      version: CONTRACT_VERSION,
      description:
        `Departments, ranks and duty state of players, called by the FiveM resource \`bridge\`. Every response body ` +
        `is JSON with a boolean \`ok\`. Rate limit: ${PANEL_RATE_LIMIT.limit} requests per ` +
        `${PANEL_RATE_LIMIT.windowMs / 1000} s fixed window per client IP, counted on every ${API_PREFIX} request.`,
    },
    servers: [{ url: 'http://127.0.0.1:3999', description: 'The mock panel (npm run mock-panel)' }],
  });
}

/** The committed form of the document: two-space JSON with a trailing newline, so regeneration is diff-stable. */
export function renderOpenApiJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
