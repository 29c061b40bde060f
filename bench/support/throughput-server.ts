import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockPanel } from '../../mock-panel/create-mock-panel.js';
import { jsonResponse } from '../../mock-panel/http/responses.js';
import { sendFetchResponse, toFetchRequest } from '../../mock-panel/server/fetch-adapter.js';
import { startMockPanelServer } from '../../mock-panel/server/http-server.js';

// One server of the mock-panel throughput bench, in its own process so it has a core to itself and the load
// client's work is not counted against it. Started with `fork` by bench/scenarios/mock-panel-throughput.ts:
//   mock <token> <limit> <windowMs>   the mock panel as `npm run mock-panel -- --rate-limit <limit>` runs it
//   bare <base64 body>                node:http answering those bytes as application/json, nothing else
//   fetch <base64 body>               the same through the mock panel's Fetch adapter and nothing else: a Request
//                                     (with its abort signal) from each message and a Response sent back, no handler
// Sends `{ url }` once listening; answers each `cpu` message with this process's CPU time so far (µs).

export type ThroughputServerMessage = { url: string } | { cpuUs: number };

async function listen(): Promise<string> {
  const [kind, ...rest] = process.argv.slice(2);
  if (kind === 'mock') {
    const [token = '', limit, windowMs] = rest;
    const panel = createMockPanel({ token, rateLimit: { limit: Number(limit), windowMs: Number(windowMs) } });
    return (await startMockPanelServer({ panel, port: 0 })).url;
  }
  const body = Buffer.from(rest[0] ?? '', 'base64');
  const json = { text: body.toString(), bytes: body };
  const server =
    kind === 'fetch'
      ? createServer(async (message, reply) => {
          await toFetchRequest(message, 'http://127.0.0.1', new AbortController().signal);
          await sendFetchResponse(jsonResponse(json), reply);
        })
      : createServer((_request, reply) => {
          reply.writeHead(200, { 'content-type': 'application/json', 'content-length': body.byteLength });
          reply.end(body);
        });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const send = (message: ThroughputServerMessage) => process.send?.(message);
process.on('message', (message) => {
  if (message !== 'cpu') return;
  const { user, system } = process.cpuUsage();
  send({ cpuUs: user + system });
});
// The parent's end is this process's end, even if the parent dies without killing it.
process.on('disconnect', () => process.exit(0));
send({ url: await listen() });
