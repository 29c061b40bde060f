import { HttpResponse } from 'msw';
import { z } from 'zod';
import { ErrorBodySchema, type ErrorCode, errorStatus } from '../../shared/contract';

/**
 * A success body, parsed with its contract schema first so the mock can never answer off-contract. The contract is
 * zod/mini (the bridge bundles it), which full zod parses through their shared core.
 */
export function respond<Schema extends z.core.$ZodType>(schema: Schema, body: z.input<Schema>, status = 200): Response {
  return HttpResponse.json(z.parse(schema, body) as Record<string, unknown>, { status });
}

/** An error body with the status that belongs to its code. */
export function apiError(code: ErrorCode, message: string, field?: string): Response {
  const body = ErrorBodySchema.parse({ ok: false, error: code, message, ...(field === undefined ? {} : { field }) });
  return HttpResponse.json(body, { status: errorStatus(code) });
}
