// SetHttpHandler (native SET_HTTP_HANDLER): requests to `/<resource>/…` reach the resource's handler on the server's
// next frame, from JS and Lua, with the path after the resource's prefix.
import { afterEach, describe, expect, it } from 'vitest';
import { manifest, tempResource } from '../../bench/support/sim-fixtures.js';
import { createSim, type Sim } from '../../sim/index.js';

let sim: Sim;
afterEach(() => sim?.stop());

const JS_ECHO = `
SetHttpHandler((req, res) => {
  if (req.path === '/slow') {
    req.setDataHandler((body) => {
      res.writeHead(201, { 'Content-Type': 'text/plain', 'X-Many': ['a', 'b'] });
      res.write('got ');
      res.send(body);
    });
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.writeHead(500);
  res.send(JSON.stringify({ path: req.path, method: req.method, auth: req.headers.Authorization, address: req.address }));
});
`;

const LUA_ECHO = `
SetHttpHandler(function(request, response)
  if request.method == 'GET' and request.path == '/ping' then
    response.writeHead(200, { ['Content-Type'] = 'text/plain' })
    response.send('pong ' .. tostring(request.headers['X-Who']))
  else
    response.writeHead(404)
    response.send()
  end
end)
`;

async function start(): Promise<Sim> {
  return createSim({
    resources: [
      tempResource('js_http', { 'fxmanifest.lua': manifest("server_script 'server.js'"), 'server.js': JS_ECHO }),
      tempResource('lua_http', { 'fxmanifest.lua': manifest("server_script 'server.lua'"), 'server.lua': LUA_ECHO }),
      tempResource('no_http', { 'fxmanifest.lua': manifest("server_script 'server.lua'"), 'server.lua': '' }),
    ],
    clock: 'virtual',
  });
}

describe('resource HTTP handlers', () => {
  it('hands a JS handler the path after the resource, the method, headers and address, on a later frame', async () => {
    sim = await start();
    let answered = false;
    const request = sim.http({
      path: '/js_http/some/where?x=1',
      method: 'POST',
      headers: { Authorization: 'Bearer t' },
    });
    void request.then(() => {
      answered = true;
    });
    await Promise.resolve();
    expect(answered).toBe(false);
    const answer = await sim.resolve(request);
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(answer.body)).toMatchObject({
      path: '/some/where?x=1',
      method: 'POST',
      auth: 'Bearer t',
      address: '127.0.0.1',
    });
    sim.assertNoErrors();
  });

  it('delivers the body through setDataHandler and keeps what write() wrote before send()', async () => {
    sim = await start();
    const answer = await sim.resolve(sim.http({ path: '/js_http/slow', method: 'POST', body: 'hello' }));
    expect(answer).toEqual({
      status: 201,
      headers: { 'Content-Type': 'text/plain', 'X-Many': ['a', 'b'] },
      body: 'got hello',
    });
  });

  it('calls a Lua handler with dot-called response functions', async () => {
    sim = await start();
    const ping = await sim.resolve(sim.http({ path: '/lua_http/ping', headers: { 'X-Who': 'me' } }));
    expect(ping).toEqual({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'pong me' });
    const other = await sim.resolve(sim.http({ path: '/lua_http/other', method: 'DELETE' }));
    expect(other).toEqual({ status: 404, headers: {}, body: '' });
    sim.assertNoErrors();
  });

  it('answers 404 "Not found." for a resource without a handler, and again once the handler’s resource stopped', async () => {
    sim = await start();
    expect(await sim.http({ path: '/no_http/x' })).toMatchObject({ status: 404, body: 'Not found.' });
    await sim.stopResource('js_http');
    expect(await sim.http({ path: '/js_http/x' })).toMatchObject({ status: 200 });
    await sim.startResource('js_http');
    expect((await sim.resolve(sim.http({ path: '/js_http/x' }))).status).toBe(200);
  });

  it('sends a path under no running resource to the server’s root endpoint (its version)', async () => {
    sim = await start();
    const answer = await sim.http({ path: '/nothing/here' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toHaveProperty('version');
  });
});
