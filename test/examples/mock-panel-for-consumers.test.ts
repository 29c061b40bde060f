import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockPanel } from '../../mock-panel/index.js';

// The snippet of types/README.md, as a resource developer's own test would use the mock panel.
const panel = createMockPanel({ token: 'test-token', baseUrl: 'http://panel.test' });
const server = setupServer(...panel.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => panel.controls.reset());
afterAll(() => server.close());

const authorised = { authorization: 'Bearer test-token', 'content-type': 'application/json' };

describe('the mock panel in a consumer test', () => {
  it("answers a demo user's departments and records a duty session", async () => {
    const departments = await fetch('http://panel.test/api/leo/user/284619375016482817/departments', {
      headers: authorised,
    });
    expect(departments.status).toBe(200);
    expect(await departments.json()).toMatchObject({ ok: true, departments: [{ slug: 'lspd' }, { slug: 'bcso' }] });

    const on = await fetch('http://panel.test/api/leo/duty/on', {
      method: 'POST',
      headers: authorised,
      body: JSON.stringify({ chatId: '284619375016482817', departmentId: 1, rankId: 2 }),
    });
    expect(on.status).toBe(200);
    expect(panel.controls.sessions('284619375016482817')).toEqual([
      expect.objectContaining({ departmentId: 1, rankId: 2, endedAt: null }),
    ]);
  });

  it('starts every test from the seeded data after reset', () => {
    expect(panel.controls.sessions()).toEqual([]);
  });
});
