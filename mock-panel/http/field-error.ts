import type { z } from 'zod';
import { type BodyField, FIELD_ERROR_CODES } from '../../shared/contract';
import type { HttpAnswer } from './panel-exchange';
import { apiErrorAnswer } from './responses';

function isBodyField(key: PropertyKey | undefined): key is BodyField {
  return typeof key === 'string' && Object.hasOwn(FIELD_ERROR_CODES, key);
}

/** A 400 whose code names the first field that failed (`invalid_rank_id`), with the field in `field`. */
export function fieldError(error: z.core.$ZodError): HttpAnswer {
  const issue = error.issues[0];
  const field = issue?.path[0];
  if (issue && isBodyField(field)) return apiErrorAnswer(FIELD_ERROR_CODES[field], `${field}: ${issue.message}`, field);
  return apiErrorAnswer('invalid_json', issue?.message ?? 'the body does not match the expected shape');
}
