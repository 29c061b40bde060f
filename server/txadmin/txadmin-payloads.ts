// txAdmin's events as its monitor resource fires them, read from tabarra/txAdmin v8.0.1 (d8c5515b): core builds each
// payload (core/modules/FxRunner/index.ts killServer, core/modules/FxScheduler.ts, core/routes/player/actions.ts
// handleKick and handleBan, core/routes/fxserver/commands.ts kick_all), sends it as JSON through the server's console
// (`txaEvent`), and resource/sv_main.lua fires `txAdmin:events:<name>` with the decoded table. What reaches a JS
// handler went through Lua's json.decode and msgpack, so it is read tolerantly: a number may come as a numeric string,
// and the field names of older versions are read too (ox_lib 3.39 still reads playerWarned's `target`, which v7.3
// renamed `targetNetId`; playerBanned's `target` became `targetNetId` and `targetIds` in v5.0). Anything unreadable
// reads as missing, never as a throw.

/** The resource txAdmin runs as (the `txAdmin` name only aliases it for exports). */
export const TXADMIN_RESOURCE = 'monitor';

/** The events the bridge reads. */
export const TXADMIN_EVENTS = ['serverShuttingDown', 'scheduledRestart', 'playerKicked', 'playerBanned'] as const;

/** txConfig.server.shutdownNoticeDelayMs's default: the delay a notice without a readable one is given. */
export const TXADMIN_DEFAULT_DELAY_MS = 5000;

type Fields = Record<string, unknown>;

const fieldsOf = (data: unknown): Fields => (data !== null && typeof data === 'object' ? (data as Fields) : {});

/** A whole number, or a string of one. */
function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}

/** serverShuttingDown `{ delay, author, message }`: the milliseconds until txAdmin kills the process. */
export const shutdownDelayOf = (data: unknown): number => {
  const delay = wholeNumber(fieldsOf(data).delay);
  return delay !== undefined && delay >= 0 ? delay : TXADMIN_DEFAULT_DELAY_MS;
};

/** scheduledRestart `{ secondsRemaining, translatedMessage }`. */
export const secondsRemainingOf = (data: unknown): number | undefined => {
  const seconds = wholeNumber(fieldsOf(data).secondsRemaining);
  return seconds !== undefined && seconds >= 0 ? seconds : undefined;
};

/** playerKicked `{ target, author, reason, dropMessage }`: the player kicked, or everyone (target -1, since v8.0). */
export function kickTargetOf(data: unknown): number | 'everyone' | undefined {
  const fields = fieldsOf(data);
  const target = wholeNumber(fields.target ?? fields.targetNetId);
  if (target === -1) return 'everyone';
  return target !== undefined && target > 0 ? target : undefined;
}

/**
 * playerBanned: the player it names (`targetNetId`, `target` before v5.0) and the identifiers banned (`targetIds`):
 * txAdmin's monitor drops every connected player who has one of them.
 */
export function banTargetsOf(data: unknown): { netId: number | undefined; identifiers: string[] } {
  const fields = fieldsOf(data);
  const netId = wholeNumber(fields.targetNetId ?? fields.target);
  const ids = Array.isArray(fields.targetIds) ? fields.targetIds : [];
  return {
    netId: netId !== undefined && netId > 0 ? netId : undefined,
    identifiers: ids.filter((id): id is string => typeof id === 'string'),
  };
}
