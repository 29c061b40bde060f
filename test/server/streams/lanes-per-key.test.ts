import { describe, expect, it } from 'vitest';
import { LanesPerKey } from '../../../server/kernel/streams.js';

const lanes = (failures: unknown[] = []) => new LanesPerKey<number>((error) => failures.push(error));

describe("a key's lane of tasks (a player's framework calls)", () => {
  it('runs a task at once when nothing of that key is pending', () => {
    const queue = lanes();
    const ran: string[] = [];
    queue.run(1, () => {
      ran.push('a');
    });
    queue.run(1, () => {
      ran.push('b');
    });
    expect(ran).toEqual(['a', 'b']);
    expect(queue.open).toBe(0);
  });

  it("runs the next task after a pending one settled, other keys' tasks at once", async () => {
    const queue = lanes();
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

  it('goes on after a task that rejected or threw, and tells of it', async () => {
    const failures: unknown[] = [];
    const queue = lanes(failures);
    const ran: string[] = [];
    queue.run(1, () => Promise.reject(new Error('boom')));
    queue.run(1, () => {
      throw new Error('bang');
    });
    queue.run(1, () => {
      ran.push('after');
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toEqual(['after']);
    expect(failures.map(String)).toEqual(['Error: boom', 'Error: bang']);
  });

  it('holds nothing for a key once its tasks have ended', async () => {
    const queue = lanes();
    const finishes: Array<() => void> = [];
    for (const key of [1, 2, 3]) {
      queue.run(key, () => new Promise<void>((resolve) => finishes.push(resolve)));
      queue.run(key, () => undefined);
    }
    expect(queue.open).toBe(3);
    for (const finish of finishes) finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queue.open).toBe(0);
  });

  it('runs nothing more once stopped, even from inside a task that answers later', async () => {
    const queue = lanes();
    const ran: string[] = [];
    let release = () => {};
    queue.run(1, () => {
      ran.push('first');
      queue.run(1, () => {
        ran.push('second, after stop');
      });
      queue.stop();
      return new Promise<void>((resolve) => (release = resolve));
    });
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toEqual(['first']);
    expect(queue.open).toBe(0);
  });
});
