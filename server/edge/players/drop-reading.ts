import type { Drop } from '../../duty/index.js';
import type { PlayerDrop } from '../../kernel/index.js';

// FXServer's ClientDropReason (citizenfx/fivem 06d4d348, code/components/citizen-server-impl/include/
// ClientDropReasons.h): CLIENT (2) is the client's own msgIQuit, CLIENT_REPLACED (4) the same game connecting again
// (InitConnectMethod.cpp: `Reconnecting`), 5 and 6 the server's timeouts (GameServer.cpp: `Server->client connection
// timed out. ...`), 12 OneSync's (ServerGameState.cpp: `Timed out after 60 seconds ...`).
const CLIENT = 2;
const GAME_GONE_WITHOUT_QUITTING = new Set([4, 5, 6, 12]);
/** MiniDump.cpp: the crash handler has the client send `Game crashed: <what crashed>` before the game dies. */
const GAME_CRASHED = /^Game crashed: /;
/** What the timeouts above say, for an artifact that does not pass the code. */
const TIMED_OUT = /timed out/i;

// txAdmin v8.0.1 (d8c5515b), resource/sv_main.lua: its monitor resource drops with '[txAdmin] ' and the message its
// core wrote in the server's language (locale/en.json: kick_messages.player `You have been kicked: ...`,
// ban_messages.kick_permanent / kick_temporary `(admin) You have been [permanently] banned ...`). txAdmin fires its
// event before it drops, so the event names the reason first (server/edge/txadmin/); the text is read only for a drop that
// comes first, and only in English.
const TXADMIN = 'monitor';
const TXADMIN_KICKED = /^\[txAdmin\] You have been kicked/;
const TXADMIN_BANNED = /^\[txAdmin\] .*You have been (permanently )?banned/;

/**
 * What a drop means for the duty: who ended the session (`dropped`, or `kicked` / `banned` by txAdmin), and whether
 * the player did not choose to leave (`resumable`: the game crashed, timed out or connected again), so that
 * Config.ResumeWindowMs may hold their shift. A drop the player chose (`Exiting`, `Disconnected.`, `Quit: ...`) and
 * any drop by a resource are not resumable.
 */
export function readDrop({ reason, resource, code }: PlayerDrop): Required<Drop> {
  if (resource === TXADMIN && TXADMIN_BANNED.test(reason)) return { reason: 'banned', resumable: false };
  if (resource === TXADMIN && TXADMIN_KICKED.test(reason)) return { reason: 'kicked', resumable: false };
  const resumable =
    code === undefined
      ? GAME_CRASHED.test(reason) || TIMED_OUT.test(reason)
      : GAME_GONE_WITHOUT_QUITTING.has(code) || (code === CLIENT && GAME_CRASHED.test(reason));
  return { reason: 'dropped', resumable };
}
