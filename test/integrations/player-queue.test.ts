import { describe, expect, it } from 'vitest';
import { PlayerQueue } from '../../server/integrations/jobs/player-queue.js';

describe("a player's queue of framework calls", () => {
  it('runs a task at once when nothing of that player is pending', () => {
    const queue = new PlayerQueue();
    const ran: string[] = [];
    queue.run(1, () => {
      ran.push('a');
    });
    queue.run(1, () => {
      ran.push('b');
    });
    expect(ran).toEqual(['a', 'b']);
  });

  it("runs the next task after a pending one settled, other players' tasks at once", async () => {
    const queue = new PlayerQueue();
    const ran: string[] = [];
    let finish = () => {};
    queue.run(1, () => new Promise<void>((resolve) => (finish = resolve)));
    queue.run(1, () => {
      ran.push('1b');
    });
    queue.run(2, () => {
      ran.push('2a');
    });
    expect(ran).toEqual(['2a']);
    finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toEqual(['2a', '1b']);
  });

  it('goes on after a task that rejected', async () => {
    const queue = new PlayerQueue();
    const ran: string[] = [];
    queue.run(1, () => Promise.reject(new Error('boom')));
    queue.run(1, () => {
      ran.push('after');
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toEqual(['after']);
  });
});
