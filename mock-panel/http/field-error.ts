import { z } from 'zod';
import { type BodyField, FIELD_ERROR_CODES } from '../../shared/contract';
import type { HttpAnswer } from './panel-exchange';
import { apiErrorAnswer } from './responses';

function isBodyField(key: PropertyKey | undefined): key is BodyField {
  return typeof key === 'string' && Object.hasOwn(FIELD_ERROR_CODES, key);
}

/** The field's description from the contract schema's metadata, as it reads after "<field> is required: ". */
function ruleOf(schema: z.core.$ZodObject, field: BodyField): string {
  const fieldSchema = schema._zod.def.shape[field];
  const description = fieldSchema ? z.globalRegistry.get(fieldSchema)?.description : undefined;
  if (!description) return 'see the OpenAPI document';
  return description.charAt(0).toLowerCase() + description.slice(1).replace(/\.$/, '');
}

const SHOWN_LENGTH = 40;

/** The value as sent, cut short: enough for a person to recognise it. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text;
}

/**
 * A 400 whose code names the first field that failed (`invalid_rank_id`), with the field in `field` and a message a
 * person reads: "chatId is required: a chat-platform user id, 18 to 19 ASCII digits", or "rankId is invalid (got
 * "2"): ...". The rule is the field's description in the contract, not zod's wording of the check.
 */
export function fieldError(
  schema: z.core.$ZodObject,
  body: Record<string, unknown>,
  error: z.core.$ZodError,
): HttpAnswer {
  const issue = error.issues[0];
  const field = issue?.path[0];
  if (!isBodyField(field)) return apiErrorAnswer('invalid_json', 'the body does not match the expected shape');
  const value = body[field];
  const problem = value === undefined ? 'is required' : `is invalid (got ${shown(value)})`;
  return apiErrorAnswer(FIELD_ERROR_CODES[field], `${field} ${problem}: ${ruleOf(schema, field)}`, field);
}
