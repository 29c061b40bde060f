import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createMockPanel } from '../../mock-panel';
import { departmentsPath } from '../../shared/contract';
import { TWO_DEPARTMENTS } from './support/demo-users';

const authorised = { authorization: 'Bearer t' };

describe('createMockPanel', () => {
  it('with a baseUrl answers requests to that origin and base path only', async () => {
    const panel = createMockPanel({ token: 't', baseUrl: 'http://panel.test/community/' });
    const ask = (url: string) => getResponse(panel.handlers, new Request(url, { headers: authorised }));
    const path = departmentsPath(TWO_DEPARTMENTS);
    expect((await ask(`http://panel.test/community${path}`))?.status).toBe(200);
    expect(await ask(`http://panel.test${path}`)).toBeUndefined();
    expect(await ask(`http://elsewhere.test/community${path}`)).toBeUndefined();
  });

  it('without a baseUrl answers any origin', async () => {
    const panel = createMockPanel({ token: 't' });
    const response = await getResponse(
      panel.handlers,
      new Request(`https://any.example${departmentsPath(TWO_DEPARTMENTS)}`, { headers: authorised }),
    );
    expect(response?.status).toBe(200);
  });

  it('refuses an empty token', () => {
    expect(() => createMockPanel({ token: '' })).toThrow(/non-empty token/);
  });
});
