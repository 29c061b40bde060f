// What a drop means for the duty, read from FXServer's own arguments (citizenfx/fivem 06d4d348) and txAdmin's texts
// (v8.0.1): only a game that went away without its player choosing it may keep the shift (Config.ResumeWindowMs).
import { describe, expect, it } from 'vitest';
import { readDrop } from '../../../server/edge/client-events.js';

const CLIENT = '__cfx_internal:client';
const SERVER = '__cfx_internal:server';

describe('a drop, as the duty reads it', () => {
  it.each([
    ['the game crashed', 'Game crashed: GTA5.exe!sub_1 (0x10)', CLIENT, 2],
    ['an unhandled exception', 'Game crashed: Unhandled exception: std::bad_alloc', CLIENT, 2],
    ['the server stopped hearing from it', 'Server->client connection timed out. Last seen 60012 msec ago.', SERVER, 5],
    [
      'the same, with commands pending',
      'Server->client connection timed out. Pending commands: 3.\nCommand list:\n',
      SERVER,
      6,
    ],
    ['OneSync stopped hearing from it', 'Timed out after 60 seconds (1, 12)', '__cfx_internal:server_onesync', 12],
    ['the same game connected again', 'Reconnecting', SERVER, 4],
    ['an artifact that passes the reason alone: a crash', 'Game crashed: GTA5.exe!sub_1 (0x10)', '', undefined],
    [
      'an artifact that passes the reason alone: a timeout',
      'Server->client connection timed out. Last seen 60012 msec ago.',
      '',
      undefined,
    ],
  ])('may be resumed: %s', (_what, reason, resource, code) => {
    expect(readDrop({ reason, resource, code })).toEqual({ reason: 'dropped', resumable: true });
  });

  it.each([
    ['the player closed the game', 'Exiting', CLIENT, 2],
    ['the quit command', 'Quit: brb', CLIENT, 2],
    ["the game's own menu", 'Disconnected.', CLIENT, 2],
    ['another resource dropped them', 'You were kicked by an anticheat', 'anticheat', 1],
    ['a kick that names a crash', 'Game crashed: nice try', 'anticheat', 1],
    ['the server shutting down', 'Server shutting down: quit', SERVER, 7],
    ['a net event flood', 'Reliable network event overflow.', SERVER, 9],
    ['an artifact that passes the reason alone: a quit', 'Exiting', '', undefined],
  ])('ends the shift at once: %s', (_what, reason, resource, code) => {
    expect(readDrop({ reason, resource, code })).toEqual({ reason: 'dropped', resumable: false });
  });

  it("reads txAdmin's own kick and ban texts as a kick and a ban", () => {
    const monitor = (reason: string) => readDrop({ reason, resource: 'monitor', code: 1 });
    expect(monitor('[txAdmin] You have been kicked: afk.')).toEqual({ reason: 'kicked', resumable: false });
    expect(monitor('[txAdmin] (admin) You have been permanently banned from this server for "aimbot".')).toEqual({
      reason: 'banned',
      resumable: false,
    });
    expect(
      monitor('[txAdmin] (admin) You have been banned from this server for "spam". Your ban will expire in: 2 days.'),
    ).toEqual({ reason: 'banned', resumable: false });
    // A restart and a kick of everyone are the shutdown, which ended the duty before the drop.
    expect(monitor('[txAdmin] Server restarting (scheduled restart at 06:00).')).toEqual({
      reason: 'dropped',
      resumable: false,
    });
    // The text alone proves nothing from another resource.
    expect(readDrop({ reason: '[txAdmin] You have been kicked: x.', resource: 'fake', code: 1 }).reason).toBe(
      'dropped',
    );
  });
});
