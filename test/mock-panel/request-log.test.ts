import { describe, expect, it } from 'vitest';
import { RequestLog } from '../../mock-panel/store/request-log';

const entry = (index: number) => ({
  time: new Date(index * 1000).toISOString(),
  method: 'GET',
  path: `/api/leo/${index}`,
  status: 200,
  latencyMs: 0,
  clientIp: '127.0.0.1',
  faults: [],
});

describe('the request log', () => {
  it('keeps the last entries up to its capacity, oldest first, however many came before', () => {
    const log = new RequestLog(3);
    for (let index = 0; index < 2; index++) log.record(entry(index));
    expect(log.list().map(({ path }) => path)).toEqual(['/api/leo/0', '/api/leo/1']);
    for (let index = 2; index < 11; index++) {
      log.record(entry(index));
      expect(log.list().map(({ path }) => path)).toEqual(
        [index - 2, index - 1, index].map((kept) => `/api/leo/${kept}`),
      );
    }
    log.clear();
    expect(log.list()).toEqual([]);
  });
});
