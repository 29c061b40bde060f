import * as z from '../../../shared/zod-mini.js';

// Everything a client sends is untrusted: ids are bounded integers, and nothing else is read from the payload.
const requestId = z.int().check(z.gte(0), z.lte(2_147_483_647));
const departmentId = z.int().check(z.gte(1), z.lte(2_147_483_647));

/** `bridge:internal:dutyRequest (requestId, on, departmentId | null)`: the only duty input a client has. */
export const DutyRequestArgsSchema = z.tuple([requestId, z.boolean(), z.nullable(departmentId)]);

export type DutyRequestArgs = z.infer<typeof DutyRequestArgsSchema>;

/** The request id of a malformed request, when there is a usable one, so the client can still be answered. */
export const requestIdOf = (args: readonly unknown[]): number | undefined => {
  const parsed = requestId.safeParse(args[0]);
  return parsed.success ? parsed.data : undefined;
};
