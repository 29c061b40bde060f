import { describe, expect, it } from 'vitest';
import { readRateLimitHeaders } from '../../../../server/panel/rate-limit-headers.js';

const NOW = Date.UTC(2025, 5, 1, 20, 0, 0);
const read = (headers: Record<string, string>, now = NOW) => readRateLimitHeaders(new Headers(headers), now);

describe('reading the rate-limit headers of an answer', () => {
  it('reads draft 6 (RateLimit-Limit/-Remaining/-Reset in seconds) with the window from RateLimit-Policy', () => {
    expect(
      read({
        'RateLimit-Policy': '200;w=60',
        'RateLimit-Limit': '200',
        'RateLimit-Remaining': '17',
        'RateLimit-Reset': '42',
      }),
    ).toEqual({ form: 'draft-6', limit: 200, windowMs: 60_000, remaining: 17, resetInMs: 42_000 });
  });

  it('reads draft 7 (one combined RateLimit header)', () => {
    expect(read({ 'RateLimit-Policy': '200;w=60', RateLimit: 'limit=200, remaining=0, reset=7' })).toEqual({
      form: 'draft-7',
      limit: 200,
      windowMs: 60_000,
      remaining: 0,
      resetInMs: 7_000,
    });
  });

  it('reads draft 8, matching the limit to its named policy', () => {
    expect(
      read({
        'RateLimit-Policy': '"200-in-1min"; q=200; w=60; pk=:ZmFrZWtleQ==:',
        RateLimit: '"200-in-1min"; r=150; t=30',
      }),
    ).toEqual({ form: 'draft-8', limit: 200, windowMs: 60_000, remaining: 150, resetInMs: 30_000 });
  });

  it('takes the limit closest to running out when draft 8 lists several', () => {
    expect(
      read({
        'RateLimit-Policy': '"burst"; q=10; w=1, "minute"; q=200; w=60',
        RateLimit: '"burst"; r=9; t=1, "minute"; r=3; t=45',
      }),
    ).toMatchObject({ limit: 200, windowMs: 60_000, remaining: 3, resetInMs: 45_000 });
  });

  it('reads the legacy X-RateLimit-* with an epoch reset, measured against the panel’s Date header', () => {
    // The panel's clock is 5 minutes behind ours: its Date header, not our clock, says how far the reset is.
    const panelNow = NOW - 300_000;
    expect(
      read({
        'X-RateLimit-Limit': '200',
        'X-RateLimit-Remaining': '12',
        'X-RateLimit-Reset': String(Math.ceil((panelNow + 30_000) / 1000)),
        Date: new Date(panelNow).toUTCString(),
      }),
    ).toEqual({ form: 'legacy', limit: 200, remaining: 12, resetInMs: 30_000 });
  });

  it.each([
    ['delta seconds', '30', 30_000],
    ['epoch seconds', String(NOW / 1000 + 30), 30_000],
    ['epoch milliseconds', String(NOW + 30_000), 30_000],
  ])('tells a reset in %s apart like ky: a number is a timestamp only after 2024-01-01', (_name, value, expected) => {
    expect(read({ 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': value }).resetInMs).toBe(expected);
  });

  it('gives a reset in the past as a negative delay, for the budget to decide', () => {
    expect(read({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(NOW / 1000 - 90) }).resetInMs).toBe(
      -90_000,
    );
  });

  it('prefers the standard headers when the legacy ones come too, as express-rate-limit sends them', () => {
    expect(
      read({
        'RateLimit-Policy': '200;w=60',
        'RateLimit-Limit': '200',
        'RateLimit-Remaining': '40',
        'RateLimit-Reset': '20',
        'X-RateLimit-Limit': '200',
        'X-RateLimit-Remaining': '41',
        'X-RateLimit-Reset': String(NOW / 1000 + 21),
        Date: new Date(NOW).toUTCString(),
      }),
    ).toEqual({ form: 'draft-6', limit: 200, windowMs: 60_000, remaining: 40, resetInMs: 20_000 });
  });

  it.each([
    ['seconds', '42', 42_000],
    ['an HTTP date', new Date(NOW + 42_000).toUTCString(), 42_000],
    ['an HTTP date in the past', new Date(NOW - 5_000).toUTCString(), 0],
  ])('reads Retry-After in %s', (_name, value, expected) => {
    expect(read({ 'Retry-After': value, Date: new Date(NOW).toUTCString() }).retryAfterMs).toBe(expected);
  });

  it('ignores values that are not numbers or dates instead of guessing', () => {
    expect(
      read({
        'RateLimit-Remaining': 'lots',
        'RateLimit-Reset': '-5',
        'Retry-After': 'soon',
        'X-RateLimit-Limit': '1e3',
      }),
    ).toEqual({ form: 'none' });
  });

  it('ignores a RateLimit header that is no structured field, keeping what the other headers say', () => {
    expect(read({ RateLimit: '%%% 200 %%%', 'X-RateLimit-Limit': '200', 'X-RateLimit-Remaining': '12' })).toEqual({
      form: 'legacy',
      limit: 200,
      remaining: 12,
    });
  });

  it('reads draft 8 without its limit when the policy header does not parse', () => {
    expect(read({ 'RateLimit-Policy': '{burst}', RateLimit: '"burst"; r=9; t=1' })).toEqual({
      form: 'draft-8',
      remaining: 9,
      resetInMs: 1_000,
    });
  });

  it('ignores a draft-8 limit whose remaining count is negative', () => {
    expect(read({ RateLimit: '"burst"; r=-1; t=1', 'X-RateLimit-Remaining': '4' })).toEqual({
      form: 'legacy',
      remaining: 4,
    });
  });

  it('says none when an answer carries no rate-limit headers', () => {
    expect(read({ 'Content-Type': 'application/json' })).toEqual({ form: 'none' });
  });
});
