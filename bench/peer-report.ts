import type { PeerTakeoverResult } from './scenarios/peer-takeover.js';

// A crashed server's shifts ended by a peer (`--only peers`): its lines and target (issue 30).

/** From `kill -9` to the panel's `off`, with another server alive (issue 30's target). */
export const PEER_TAKEOVER_TARGET_S = 60;

const seconds = (value: number | undefined) => (value === undefined ? 'never' : `${value.toFixed(1)} s`);

export function peerTakeoverLines(result: PeerTakeoverResult): string[] {
  const liveness =
    result.livenessMs === undefined ? 'the default liveness (30 s)' : `a liveness of ${result.livenessMs} ms`;
  return [
    '',
    `Peers: two servers of one community, one mock panel, one redis-server, ${liveness}, real time. A player on duty on server A; A killed with -9; the time until server B has ended that shift at the panel. A then starts again: duty calls it sent for that shift: ${result.sentAgainAfterRestart}.`,
    '',
    `  kill -9 to the panel's off: ${result.killToOffS.map(seconds).join(', ')}`,
  ];
}

export function peerTakeoverTargets(result: PeerTakeoverResult): Record<string, { value: string; met: boolean }> {
  const worst = Math.max(...result.killToOffS.map((value) => value ?? Number.POSITIVE_INFINITY));
  return {
    [`a crashed server's shift ended at the panel by a peer <= ${PEER_TAKEOVER_TARGET_S} s after kill -9`]: {
      value: `${result.killToOffS.map(seconds).join(', ')} (worst ${seconds(Number.isFinite(worst) ? worst : undefined)})`,
      met: Number.isFinite(worst) && worst <= PEER_TAKEOVER_TARGET_S,
    },
    'the crashed server, back, sends nothing for a shift a peer ended': {
      value: `${result.sentAgainAfterRestart} duty call(s)`,
      met: result.sentAgainAfterRestart === 0,
    },
  };
}
