// Issue 26, item 6: a network error whose own message is empty still says what happened. undici reports a host whose
// every address refused (Node's "happy eyeballs", as for `localhost` resolving to ::1 and 127.0.0.1) as `fetch
// failed` caused by an AggregateError with an empty message and the code ECONNREFUSED.

import type { LookupFunction } from 'node:net';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPanelTransport } from '../../../server/panel/panel-client.js';

/** A loopback port nothing listens on any more. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

// `panel.test` resolves to two loopback addresses, as `localhost` does on a machine with IPv6.
const twoAddresses: LookupFunction = (_host, options, callback) => {
  const addresses = [
    { address: '127.0.0.1', family: 4 },
    { address: '127.0.0.2', family: 4 },
  ];
  if (options.all) (callback as (error: null, all: typeof addresses) => void)(null, addresses);
  else callback(null, '127.0.0.1', 4);
};

/**
 * Node's own fetch, through an undici Agent of the kind Node's fetch already uses (its global dispatcher's class:
 * Node ships undici without exporting it) whose lookup answers two addresses.
 */
async function fetchResolvingTwice(): Promise<typeof fetch> {
  await fetch('data:,');
  const global = (globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')] as object;
  const Agent = global.constructor as new (options: unknown) => object;
  const dispatcher = new Agent({ connect: { autoSelectFamily: true, lookup: twoAddresses } });
  return (input, init) => fetch(input, { ...init, dispatcher } as RequestInit);
}

describe('a network failure', () => {
  it('keeps the code and the messages of a cause whose own message is empty', async () => {
    const port = await closedPort();
    const transport = createPanelTransport({
      apiBase: `http://panel.test:${port}`,
      token: 'network-failure-token-5d2e8a1c',
      timeoutMs: 5_000,
      fetch: await fetchResolvingTwice(),
    });
    const exchange = await transport.getDepartments('284619375016482817');
    expect(exchange.result.ok).toBe(false);
    if (exchange.result.ok) return;
    const { kind, message } = exchange.result.failure;
    console.log(`network failure: ${message}`);
    expect(kind).toBe('network');
    expect(message).not.toContain('()');
    expect(message).toMatch(/^the panel cannot be reached \(ECONNREFUSED/);
    expect(message).toContain(`127.0.0.1:${port}`);
  });

  it('keeps the message of a cause that has one, without repeating its code', async () => {
    const port = await closedPort();
    const transport = createPanelTransport({
      apiBase: `http://127.0.0.1:${port}`,
      token: 'network-failure-token-5d2e8a1c',
      timeoutMs: 5_000,
      fetch: (input, init) => fetch(input, init),
    });
    const exchange = await transport.getDepartments('284619375016482817');
    expect(exchange.result).toMatchObject({
      ok: false,
      failure: { kind: 'network', message: `the panel cannot be reached (connect ECONNREFUSED 127.0.0.1:${port})` },
    });
  });
});
