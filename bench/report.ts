import { clusterRows } from './cluster-report.js';
import { HEAP_REFERENCES, MICRO_TARGETS } from './micro-report.js';
import { peerTakeoverLines } from './peer-report.js';
import type { ClusterResult } from './scenarios/cluster-storm.js';
import type { CrashRecoveryResult } from './scenarios/crash-recovery.js';
import type { IdleResult } from './scenarios/idle.js';
import type { StormResult } from './scenarios/join-storm.js';
import type { MicroResult } from './scenarios/micro.js';
import type { MockPanelThroughputResult } from './scenarios/mock-panel-throughput.js';
import type { RevalidationResult } from './scenarios/on-duty-revalidation.js';
import type { OutageResult } from './scenarios/outage-restart.js';
import type { PeerTakeoverResult } from './scenarios/peer-takeover.js';
import type { ToggleAllocationResult } from './scenarios/toggle-allocation.js';
import type { TxAdminShutdownResult } from './scenarios/txadmin-shutdown.js';
import type { ThreadHoldResult } from './support/thread-hold.js';

/** Issue 24: what a game server feels is how long the bridge holds its thread. */
export const THREAD_HOLD_TARGETS = { longestTaskMs: 5, frameP99Ms: 1 } as const;

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
  /** How long the bridge held the server's thread: the largest storm, a restart after it, a crash recovery. */
  threadHold: ThreadHoldResult[];
  /** `--only idle`: the bridge's time per frame with 2048 online and nobody acting (resmon). */
  idle: IdleResult[];
  /** `--only shutdown`: the `off` calls within txAdmin's shutdown delay. */
  txAdminShutdown: TxAdminShutdownResult[];
  crashRecovery?: CrashRecoveryResult;
  /** `--only micro`: what the bridge costs the game server itself. */
  micro?: MicroResult;
  /** `--only toggle-alloc`: bytes of JS heap a duty toggle allocates. */
  toggleAllocation?: ToggleAllocationResult;
  /** `--only cluster`: several servers behind one IP, without Redis, with one, with it killed mid-storm. */
  cluster: ClusterResult[];
  /** `--only peers`: a crashed server's shifts ended at the panel by another server of the community. */
  peers?: PeerTakeoverResult;
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

function clusterLines(report: BenchReport): string[] {
  const first = report.cluster[0];
  if (!first) return [];
  const { header, rows } = clusterRows(report.cluster);
  return [
    '',
    `Cluster: ${first.servers} servers × ${first.players / first.servers} players behind one IP join within one minute each, against one mock panel (${report.settings.limitPerMinute} requests/min for that IP) over loopback HTTP, in real time; each run in its own process, the three side by side. The bridge tasks are every bridge's of the run, each server's natives left out (bench/support/thread-hold.ts); the event-loop delay is the whole process's (every server, client and the panel).`,
    '',
    ...table(header, rows),
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
          `p99 <= ${t.dutyToggleP99Us / 1000} ms`,
        ],
        ['IsPlayerOnDuty, server export via msgpack', us(micro.isPlayerOnDuty.serverUs), `<= ${t.isPlayerOnDutyUs} µs`],
        ['IsPlayerOnDuty, client export via msgpack', us(micro.isPlayerOnDuty.clientUs), `<= ${t.isPlayerOnDutyUs} µs`],
        [
          `GetOnDutyPlayers() via msgpack, ${micro.getOnDutyPlayers.online} online, ${micro.getOnDutyPlayers.onDuty} on duty`,
          `${micro.getOnDutyPlayers.cpuMsPerCall.toFixed(3)} ms`,
          '',
        ],
        [
          "  of which the bridge's side (arguments unpacked, the list, the result packed; the rest is the caller's unpacking, FXServer's msgpack at the export boundary)",
          `${micro.getOnDutyPlayers.bridgeMsPerCall.toFixed(3)} ms`,
          `<= ${t.getOnDutyPlayersMs} ms`,
        ],
        [
          `heap per cached profile (${micro.heapPerCachedProfile.profiles} restored from KVP; the simulator's KVP copy, ${micro.heapPerCachedProfile.simulatorKvpBytes.toFixed(0)} bytes, taken off)`,
          `${(micro.heapPerCachedProfile.bytes / 1024).toFixed(2)} KB`,
          `data (about ${HEAP_REFERENCES.perCachedProfileBytes / 1024} KB asked; npm run bench:memory)`,
        ],
        [
          `heap retained per connect/drop cycle (${micro.heapPerCycle.cycles}; nothing taken off: the simulator alone keeps ${micro.heapPerCycle.simulatorBytes.toFixed(0)} bytes)`,
          `${micro.heapPerCycle.bytes.toFixed(0)} bytes`,
          '≈ 0 asked: data, heap in use holds V8 code (npm run bench:memory)',
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

function threadHoldLines(report: BenchReport): string[] {
  if (report.threadHold.length === 0) return [];
  const t = THREAD_HOLD_TARGETS;
  const msOf = (value: number) => value.toFixed(2);
  const crash = report.crashRecovery;
  return [
    '',
    `How long the bridge holds the server's thread, in ms of the main thread's time (the lesser of wall and process CPU time per stretch; bench/support/thread-hold.ts): a task is one entry into the bridge's runtime or one continuation of its code, natives left out (with them beside), the first run of its script apart (script start), a task a garbage collection ran in apart (the simulator's heap is mostly its clients'); per frame is the bridge's time in each 50 ms server frame, idle frames included (virtual time lines up what is due at one moment, so a frame's sum is an upper bound). Targets: longest task <= ${t.longestTaskMs} ms, p99 per frame <= ${t.frameP99Ms} ms. The process's own loop delay (monitorEventLoopDelay) holds the simulator, the clients and the panel too: information only.`,
    ...(crash
      ? [
          `Crash recovery: ${crash.openDuties} duties open when the server died; the new server had them ended at the panel after ${crash.endedAfterS === undefined ? 'never' : `${crash.endedAfterS.toFixed(1)} s`} (${crash.stillOpen} still open).`,
        ]
      : []),
    '',
    ...table(
      [
        'run',
        'game time',
        'bridge CPU (process CPU)',
        'tasks',
        'task p99',
        'longest task (with natives): what started it',
        'tasks of 1 ms or more a collection ran in: count, longest',
        'script start',
        'frames (with bridge work)',
        'per frame p50 / p99 / max',
        'process loop delay p50 / p99 / max',
      ],
      report.threadHold.map((hold) => [
        hold.label,
        `${hold.gameS.toFixed(0)} s`,
        `${hold.bridgeCpuS.toFixed(2)} s (${hold.processCpuS.toFixed(1)} s)`,
        String(hold.tasks),
        msOf(hold.taskP99Ms),
        `${msOf(hold.longestTaskMs)} (${msOf(hold.longestTaskWithNativesMs)}): ${hold.longestTask}`,
        `${hold.tasksInCollection}, ${hold.tasksInCollection > 0 ? msOf(hold.longestTaskInCollectionMs) : '-'}`,
        hold.scriptStarts > 0
          ? `${msOf(hold.longestScriptStartMs)}${hold.scriptStartInCollection ? ' (a collection in it)' : ''}`
          : '-',
        `${hold.frames} (${hold.framesWithBridgeWork})`,
        `${msOf(hold.frameP50Ms)} / ${msOf(hold.frameP99Ms)} / ${msOf(hold.frameMaxMs)}`,
        `${msOf(hold.processLoopDelay.p50Ms)} / ${msOf(hold.processLoopDelay.p99Ms)} / ${msOf(hold.processLoopDelay.maxMs)}`,
      ]),
    ),
    '',
    'The three longest tasks of each run, what started them, and each clock alone over the whole task (natives in):',
    ...report.threadHold.map(
      (hold) =>
        `  ${hold.label}: ${hold.topTasks.map((task) => `${msOf(task.ms)} ms (${task.what}; its span: wall ${msOf(task.spanWallMs)}, process CPU ${msOf(task.spanCpuMs)})`).join('; ') || 'none'}`,
    ),
  ];
}

function idleLines(report: BenchReport): string[] {
  if (report.idle.length === 0) return [];
  const msOf = (value: number) => value.toFixed(4);
  return [
    '',
    "Idle (resmon): 2048 players online with their profiles loaded, nobody acting, watched for 5 minutes of game time; the bridge's time in each 50 ms server frame as above (FXServer calls its tick in every frame; timer.js returns at once while nothing waits, and otherwise walks every waiting timer: a frame whose tick walked them has work). The on-duty players' profiles are revalidated meanwhile (its requests are counted); they all went on duty within seconds, so their revalidations land in the same few frames (max), where a real server spreads them over the interval.",
    '',
    ...table(
      [
        'run',
        'per frame: mean (without collections) / p99 / max',
        'frames',
        'ticks that walked timers /s',
        'timers fired /s',
        'setTick calls /s',
        'timers waiting at the end',
        'requests',
      ],
      report.idle.map((result) => [
        result.threadHold.label,
        `${msOf(result.frameMeanMs)} (${msOf(result.frameMeanWithoutCollectionsMs)}) / ${msOf(result.frameP99Ms)} / ${msOf(result.frameMaxMs)} ms`,
        String(result.frames),
        result.ticksWithWorkPerS.toFixed(1),
        result.timersFiredPerS.toFixed(2),
        result.tickerCallsPerS.toFixed(1),
        String(result.pendingTimers),
        String(result.requests),
      ]),
    ),
  ];
}

function shutdownLines(report: BenchReport): string[] {
  if (report.txAdminShutdown.length === 0) return [];
  const first = report.txAdminShutdown[0] as TxAdminShutdownResult;
  return [
    '',
    `txAdmin's shutdown: ${first.onDuty} players on duty when txAdmin sends its notice with its default delay (${first.delayMs} ms) and kills the process after it; a panel allowing ${first.limitPerMinute} requests a minute; a new server starts on the same KVP. The notice comes either in a window of the panel's the bridge has not used yet, or right after the last player went on duty (that window partly spent).`,
    '',
    ...table(
      [
        'notice after the last on',
        'ended within the delay (last at)',
        'ended by the next start (all after)',
        'offs the panel took',
        '429s',
      ],
      report.txAdminShutdown.map((result) => [
        `${result.noticeAfterMs / 1000} s`,
        `${result.endedInTime} of ${result.onDuty} (${result.lastEndedAfterMs === undefined ? '-' : `${Math.round(result.lastEndedAfterMs)} ms`})`,
        `${result.endedByNextStart} (${seconds(result.nextStartEndedAllAfterS)})`,
        String(result.offsAccepted),
        String(result.tooManyRequests),
      ]),
    ),
  ];
}

function toggleAllocationLines(result: ToggleAllocationResult): string[] {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const { shares } = result;
  return [
    '',
    `Bytes allocated per duty toggle: the SetPlayerDuty server export with ${result.online} online, ${result.onDuty} on duty, the panel replayed. All of it: JS heap in use before and after each toggle, a minor collection before it (${result.toggles - result.collided} of ${result.toggles} toggles had no collection inside and count). Whose work: a second pass of ${result.toggles} toggles under V8's sampling heap profiler (a sample every ${result.samplingInterval} bytes), each allocation put on the simulator's side or the script's by its stack, the script's by its file.`,
    '',
    ...table(
      ['figure', 'bytes per toggle'],
      [
        ['all of it: p50 / mean', `${kb(result.totalBytesP50)} / ${kb(result.totalBytesMean)}`],
        ['  going on duty / going off duty, mean', `${kb(result.totalOnBytesMean)} / ${kb(result.totalOffBytesMean)}`],
        ["the simulator's own work (natives, routing, replication, clients, the replay)", kb(shares.simulator)],
        ["FXServer's script runtime (msgpack at the boundaries, refs, timers)", kb(shares.runtime)],
        ["the bench's own loop", kb(shares.harness)],
        ["**the bridge** (its code, ky, Node's fetch, rxjs, zod)", kb(shares.bridge)],
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

/** The tables `npm run bench` prints (docs/budget.md shows the same). */
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
    ...threadHoldLines(report),
    ...idleLines(report),
    ...shutdownLines(report),
    ...clusterLines(report),
    ...(report.peers ? peerTakeoverLines(report.peers) : []),
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
