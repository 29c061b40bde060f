// The optional modules (dist/metrics.cjs, dist/integrations.cjs) read errors thrown on dist/server.js's side, which may
// be of another realm (the simulator loads a required file in Node's own realm, and throws an export's failure in the
// script's): the message is read the same whichever realm made the Error.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { errorText } from '../../../server/kernel/log.js';

describe('the text of an error', () => {
  it("is an Error's message, also for an Error of another realm", () => {
    expect(errorText(new TypeError('handler broke'))).toBe('handler broke');
    expect(errorText(runInNewContext("new Error('No such export job in resource es_extended')"))).toBe(
      'No such export job in resource es_extended',
    );
  });

  it('is anything else as text: a rejected export call carries a string', () => {
    expect(errorText('attempt to call a nil value')).toBe('attempt to call a nil value');
    expect(errorText({ message: 'not an Error' })).toBe('[object Object]');
  });
});
