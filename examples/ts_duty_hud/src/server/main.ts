import { DutyRoster, describeEntry } from './roster';

const roster = new DutyRoster();

// The bridge fires these for every duty change, whichever resource asked for it; types/server.d.ts types the
// arguments. It also fires playerOffDuty for a player who disconnects on duty and for everyone when it stops.
on('bridge:server:playerOnDuty', (src, departmentId, rankId) => {
  roster.add({ source: src, name: GetPlayerName(String(src)), departmentId, rankId });
});

on('bridge:server:playerOffDuty', (src) => roster.remove(src));

// For other resources (a scoreboard, a dispatch screen): exports.ts_duty_hud:GetRoster(departmentId?).
// From Lua a missing departmentId arrives as null.
exports('GetRoster', (departmentId?: number | null) => roster.list(departmentId ?? undefined));

// `roster` in the server console, or /roster in game.
RegisterCommand(
  'roster',
  (src: number) => {
    const lines = roster.list().map(describeEntry);
    if (lines.length === 0) lines.push('Nobody is on duty.');
    for (const line of lines) {
      if (src === 0) console.log(line);
      else emitNet('chat:addMessage', src, { args: ['Roster', line] });
    }
  },
  false,
);
