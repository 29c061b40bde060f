import { MICRO_TARGETS } from './micro-report.js';
import type { StormResult } from './scenarios/join-storm.js';
import type { MicroResult } from './scenarios/micro.js';
import type { MockPanelThroughputResult } from './scenarios/mock-panel-throughput.js';
import type { RevalidationResult } from './scenarios/on-duty-revalidation.js';
import type { OutageResult } from './scenarios/outage-restart.js';
import type { ToggleAllocationResult } from './scenarios/toggle-allocation.js';

export interface BenchReport {
  settings: {
    limitPerMinute: number;
    slotMs: number;
    virtualLatencyMs: number;
    where: string;
  };
  storm: StormResult[];
  loopback: StormResult | undefined;
  outage: OutageResult[];
  revalidation: RevalidationResult[];
  /** `--only micro`: what the bridge costs the game server itself. */
  micro?: MicroResult;
  /** `--only toggle-alloc`: bytes of JS heap a duty toggle allocates. */
  toggleAllocation?: ToggleAllocationResult;
  /** Absent when `--only` left it out. */
  mockPanel?: MockPanelThroughputResult | undefined;
  targets: Record<string, { value: string; met: boolean }>;
  durationS: number;
}

const seconds = (value: number | undefined) => (value === undefined ? 'never' : `${value.toFixed(1)} s`);
const ms = (value: number | undefined) => (value === undefined ? '-' : `${Math.round(value)}`);
const percent = (value: number | undefined) => (value === undefined ? '-' : `${(value * 100).toFixed(1)}%`);

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)];
}

function stormRow(result: StormResult): string[] {
  const loaded =
    result.allProfilesAfterS === undefined
      ? `${result.profilesLoaded} of ${result.players} by the cap`
      : seconds(result.allProfilesAfterS);
  return [
    result.clock === 'real' ? `${result.players} (real time)` : String(result.players),
    result.implementation,
    String(result.requests),
    String(result.tooManyRequests),
    loaded,
    seconds(result.floorS),
    percent(result.budgetUse),
    `${result.toggles}: ${ms(result.toggleP50Ms)} / ${ms(result.toggleP99Ms)}`,
    `${ms(result.idleToggleP50Ms)} / ${ms(result.idleToggleP99Ms)}`,
    String(result.lostDutyRecords),
    `${result.requestsPerSession.toFixed(2)} (${(1 + result.dutyChanges / result.players).toFixed(2)})`,
  ];
}

function microLines(micro: MicroResult): string[] {
  const t = MICRO_TARGETS;
  const us = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} µs`;
  return [
    '',
    `Micro: the built bundles in the simulator (server.js ${(micro.bundleBytes.server / 1024).toFixed(0)} KB, client.js ${(micro.bundleBytes.client / 1024).toFixed(0)} KB), the panel's answers replayed without its handlers; CPU of this process.`,
    '',
    ...table(
      ['figure', 'measured', 'target'],
      [
        [
          `resource start to ready (compile + run of the server scripts), median of ${micro.startToReady.starts}`,
          `${micro.startToReady.wallMsP50.toFixed(1)} ms (CPU ${micro.startToReady.cpuMsP50.toFixed(1)} ms)`,
          `<= ${t.startToReadyMs} ms`,
        ],
        [
          `CPU per duty toggle, SetPlayerDuty server export, ${micro.getOnDutyPlayers.online} online (${micro.dutyToggle.toggles}), all of this process's: p50 / p99`,
          `${us(micro.dutyToggle.totalP50Us)} / ${us(micro.dutyToggle.totalP99Us)}`,
          '',
        ],
        [
          `  of which the simulator's own work (natives, routing, replication, frames, the caller, the replay; Sim.hostWork): p50`,
          us(micro.dutyToggle.hostP50Us),
          '',
        ],
        [
          `  bridge-side (the rest, minus ${micro.dutyToggle.switchesPerToggle} meter clock reads of ${micro.dutyToggle.switchCostUs.toFixed(1)} µs): p50 / p99 (p99 of the ${micro.dutyToggle.toggles - micro.dutyToggle.collections} without a garbage collection)`,
          `${us(micro.dutyToggle.bridgeP50Us)} / ${us(micro.dutyToggle.bridgeP99Us)} (${us(micro.dutyToggle.bridgeP99WithoutCollectionsUs)})`,
          `p99 <= ${t.dutyToggleP99Us} µs`,
        ],
        ['IsPlayerOnDuty, server export via msgpack', us(micro.isPlayerOnDuty.serverUs), `<= ${t.isPlayerOnDutyUs} µs`],
        ['IsPlayerOnDuty, client export via msgpack', us(micro.isPlayerOnDuty.clientUs), `<= ${t.isPlayerOnDutyUs} µs`],
        [
          `GetOnDutyPlayers() via msgpack, ${micro.getOnDutyPlayers.online} online, ${micro.getOnDutyPlayers.onDuty} on duty`,
          `${micro.getOnDutyPlayers.cpuMsPerCall.toFixed(3)} ms`,
          `<= ${t.getOnDutyPlayersMs} ms`,
        ],
        [
          "  of which the bridge's side (arguments unpacked, the list, the result packed; the rest is the caller's unpacking)",
          `${micro.getOnDutyPlayers.bridgeMsPerCall.toFixed(3)} ms`,
          '',
        ],
        [
          `heap per cached profile (${micro.heapPerCachedProfile.profiles} restored from KVP; the simulator's KVP copy, ${micro.heapPerCachedProfile.simulatorKvpBytes.toFixed(0)} bytes, taken off)`,
          `${(micro.heapPerCachedProfile.bytes / 1024).toFixed(2)} KB`,
          `<= ${t.heapPerCachedProfileBytes / 1024} KB`,
        ],
        [
          `heap retained per connect/drop cycle (${micro.heapPerCycle.cycles}; nothing taken off: the simulator alone keeps ${micro.heapPerCycle.simulatorBytes.toFixed(0)} bytes)`,
          `${micro.heapPerCycle.bytes.toFixed(0)} bytes`,
          `<= ${t.heapPerCycleBytes} bytes`,
        ],
      ],
    ),
    '',
    'The simulator itself, wall time:',
    '',
    ...table(
      ['run', 'took'],
      [
        [
          '50 players through events, exports, state bags and a restart (test/sim/scenario.test.ts)',
          `${micro.simulator.fiftyPlayerScenarioMs.toFixed(0)} ms`,
        ],
        [
          'an hour of game time with 3 players (test/sim/timers.test.ts)',
          `${micro.simulator.hourOfThreePlayersMs.toFixed(0)} ms`,
        ],
        ['a bridge player connecting, getting the profile, dropping', `${micro.simulator.bridgeCycleMs.toFixed(1)} ms`],
      ],
    ),
  ];
}

function toggleAllocationLines(result: ToggleAllocationResult): string[] {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return [
    '',
    `Bytes allocated per duty toggle: the SetPlayerDuty server export with ${result.online} online, ${result.onDuty} on duty, the panel replayed; JS heap in use before and after each toggle, a minor collection before it (${2 * result.toggles - result.collided} of ${2 * result.toggles} toggles had no collection inside and count). The simulator's share from a second pass with the host-work meter on (${result.stretchesPerToggle} stretches a toggle, ${result.overheadPerStretchBytes.toFixed(0)} bytes of the meter's own taken off each).`,
    '',
    ...table(
      ['figure', 'bytes per toggle'],
      [
        ['all of it: p50 / mean', `${kb(result.totalBytesP50)} / ${kb(result.totalBytesMean)}`],
        ["  the simulator's own work (natives, routing, frames, the replay), mean", kb(result.hostBytesMean)],
        ['  bridge-side (the rest), mean', kb(result.bridgeBytesMean)],
        ['    going on duty / going off duty, mean', `${kb(result.onBytesMean)} / ${kb(result.offBytesMean)}`],
      ],
    ),
  ];
}

function mockPanelTable(result: MockPanelThroughputResult | undefined): string[] {
  if (!result) return [];
  return [
    '',
    `Mock panel throughput: GET ${result.route} (${result.bodyBytes} bytes of JSON), ${result.concurrency} kept-alive connections in a closed loop for ${result.measureS} s each, the same client; the bare node:http server answers the same bytes. Each server in its own process, one after the other. Ratio ${result.ratio.toFixed(2)}; with nothing but the Fetch objects every msw handler needs, ${result.fetchOnlyRatio.toFixed(2)}.`,
    '',
    ...table(
      ['server', 'requests/s', 'p50 / p99 ms', 'server CPU per request', 'server CPU', 'client CPU', 'failed'],
      [result.mock, result.bare, result.fetchOnly].map((run) => [
        run.server,
        String(Math.round(run.requestsPerS)),
        `${run.p50Ms?.toFixed(2) ?? '-'} / ${run.p99Ms?.toFixed(2) ?? '-'}`,
        `${Math.round(run.serverCpuUsPerRequest)} µs`,
        percent(run.serverCpuShare),
        percent(run.clientCpuShare),
        String(run.failures),
      ]),
    ),
  ];
}

/** The tables `npm run bench` prints (the README shows the same). */
export function formatReport(report: BenchReport): string[] {
  const { settings } = report;
  const lines = [
    ...(report.storm.length > 0 || report.loopback
      ? [
          `Join storm: the players join within one minute; panel limit ${settings.limitPerMinute} requests/min (one slot = ${settings.slotMs} ms), ${settings.where}.`,
          '',
          ...table(
            [
              'players',
              'bridge',
              'requests',
              '429s',
              'all profiles after',
              'floor',
              'budget use',
              'toggles in storm: p50 / p99 ms',
              'idle toggle p50 / p99 ms',
              'lost',
              'requests per session (1 + duty changes)',
            ],
            [...report.storm, ...(report.loopback ? [report.loopback] : [])].map(stormRow),
          ),
        ]
      : []),
    ...(report.outage.length > 0
      ? [
          '',
          'Panel outage: 200 players on and off duty every 1-3 min; the panel hangs from minute 3 to 13; the server restarts at minute 8.',
          '',
          ...table(
            [
              'bridge',
              'duty changes',
              'lost',
              'panel had them all after',
              'toggles during outage (refused): p50 / p99 ms',
              'requests during outage',
              'requests',
              '429s',
            ],
            report.outage.map((result) => [
              result.implementation,
              String(result.dutyChanges),
              String(result.lostDutyRecords),
              result.caughtUpAfterS === undefined ? 'never' : `${result.caughtUpAfterS.toFixed(1)} s`,
              `${result.togglesDuringOutage} (${result.refusedDuringOutage}): ${ms(result.toggleP50DuringOutageMs)} / ${ms(result.toggleP99DuringOutageMs)}`,
              String(result.requestsDuringOutage),
              String(result.requests),
              String(result.tooManyRequests),
            ]),
          ),
        ]
      : []),
    ...(report.revalidation.length > 0
      ? [
          '',
          'On-duty revalidation: 400 of 2048 players on duty, watched once every profile is loaded, nobody asking for anything; 40 of them lose their department at a random moment.',
          '',
          ...table(
            [
              'players',
              'on duty',
              'interval',
              'watched',
              'revalidation requests',
              'per on-duty player per hour',
              'share of the limit',
              'requests while watched',
              '429s',
              'removal to off duty: p50 / p99 / max',
            ],
            report.revalidation.map((result) => [
              String(result.players),
              String(result.onDuty),
              `${result.intervalMs / 60_000} min`,
              `${result.watchMs / 60_000} min`,
              String(result.revalidationRequests),
              result.perOnDutyPlayerPerHour.toFixed(1),
              percent(result.budgetShare),
              String(result.requestsDuringWatch),
              String(result.tooManyRequests),
              `${seconds(result.removalToOffP50S)} / ${seconds(result.removalToOffP99S)} / ${seconds(result.removalToOffMaxS)} (${result.removalsEnded} of ${result.removals})`,
            ]),
          ),
        ]
      : []),
    ...(report.micro ? microLines(report.micro) : []),
    ...(report.toggleAllocation ? toggleAllocationLines(report.toggleAllocation) : []),
    ...mockPanelTable(report.mockPanel),
    '',
    'Targets (the bridge):',
    ...Object.entries(report.targets).map(
      ([name, { value, met }]) => `  ${met ? 'met    ' : 'MISSED '} ${name}: ${value}`,
    ),
    '',
    `The bench took ${report.durationS.toFixed(0)} s.`,
  ];
  return lines;
}
