import { INTERNAL_EVENTS } from '../../../shared/events.js';
import type { SimPlayer } from '../../../sim/index.js';
import type { World } from './world.js';

/** The duty requests (`requestId, on, departmentId`) the server received from that player's client. */
export const dutyRequestsFrom = (world: World, player: SimPlayer): unknown[][] =>
  world.sim
    .eventsNamed(INTERNAL_EVENTS.dutyRequest)
    .filter((event) => event.side === 'server' && event.source === `net:${player.id}`)
    .map((event) => event.args);

/**
 * Does `act` on the player's client (a command, a click), then waits until the server has answered every duty
 * request it made and everything the answers brought is shown.
 */
export async function dutyAnswered(world: World, player: SimPlayer, act: () => void): Promise<void> {
  const results = () => player.received(INTERNAL_EVENTS.dutyResult).length;
  const [resultsBefore, requestsBefore] = [results(), dutyRequestsFrom(world, player).length];
  act();
  await world.sim.settle();
  const requestsMade = dutyRequestsFrom(world, player).length - requestsBefore;
  await world.sim.until(() => results() - resultsBefore >= requestsMade, 10_000, 'the answers to the duty requests');
  await world.sim.settle();
}

/** A command typed in the player's chat, once every duty request it made is answered. */
export const typed = (world: World, player: SimPlayer, line: string): Promise<void> =>
  dutyAnswered(world, player, () => player.command(line));
