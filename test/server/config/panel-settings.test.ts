import { describe, expect, it } from 'vitest';
import {
  API_BASE_CONVAR,
  type PanelSettingsResult,
  readPanelSettings,
  TOKEN_CONVAR,
} from '../../../server/kernel/settings.js';

const TOKEN = 'panel-token-0a1b2c3d4e5f';

const read = (base: string, token = TOKEN): PanelSettingsResult =>
  readPanelSettings((name) => ({ [API_BASE_CONVAR]: base, [TOKEN_CONVAR]: token })[name] ?? '');

const apiBaseOf = (base: string): string => {
  const result = read(base);
  if (!result.ok) throw new Error(`expected ${base} to be accepted: ${result.errors.join('; ')}`);
  return result.settings.apiBase;
};

describe('reading BRIDGE_API_BASE', () => {
  it.each([
    ['https://panel.example.com', 'https://panel.example.com'],
    ['https://panel.example.com/', 'https://panel.example.com'],
    ['https://panel.example.com///', 'https://panel.example.com'],
    ['https://panel.example.com/community', 'https://panel.example.com/community'],
    ['https://panel.example.com/community/', 'https://panel.example.com/community'],
    ['https://panel.example.com:8443/', 'https://panel.example.com:8443'],
    ['  https://panel.example.com  ', 'https://panel.example.com'],
    ['HTTPS://Panel.Example.com', 'https://panel.example.com'],
  ])('takes %j as the base %j', (base, expected) => {
    expect(apiBaseOf(base)).toBe(expected);
  });

  it.each([
    ['https://panel.example.com/api/leo', 'https://panel.example.com'],
    ['https://panel.example.com/api/leo/', 'https://panel.example.com'],
    ['https://panel.example.com/community/api/leo', 'https://panel.example.com/community'],
    ['https://panel.example.com/API/LEO', 'https://panel.example.com'],
  ])('drops the /api/leo suffix of %j with a warning', (base, expected) => {
    const result = read(base);
    expect(result.ok && result.settings.apiBase).toBe(expected);
    expect(result.warnings).toEqual([
      expect.stringContaining(`should be the panel's base URL without /api/leo; using ${expected}`),
    ]);
  });

  it('refuses a base without a scheme, suggesting the https:// line to add', () => {
    const result = read('panel.example.com');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual([
      `${API_BASE_CONVAR} "panel.example.com" has no scheme. Add this line to server.cfg: set ${API_BASE_CONVAR} "https://panel.example.com"`,
    ]);
  });

  it.each([
    ['a query', 'https://panel.example.com/?token=abc'],
    ['a fragment', 'https://panel.example.com/#api'],
    ['credentials', 'https://user:secret@panel.example.com'],
  ])('refuses a base with %s', (_name, base) => {
    const result = read(base);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual([
      expect.stringContaining('must not hold a query, a fragment or credentials'),
    ]);
  });

  it.each(['ftp://panel.example.com', 'ws://panel.example.com'])('refuses a scheme other than http(s): %s', (base) => {
    const result = read(base);
    expect(!result.ok && result.errors).toEqual([expect.stringContaining('must be an http:// or https:// URL')]);
  });

  it('refuses a base that is not a URL', () => {
    const result = read('https://panel example.com');
    expect(!result.ok && result.errors).toEqual([expect.stringContaining('is not a valid URL')]);
  });

  it.each(['http://panel.example.com', 'http://203.0.113.7:3000', 'http://172.32.0.1'])(
    'warns that %s sends the token unencrypted over a public host',
    (base) => {
      const result = read(base);
      expect(result.ok).toBe(true);
      expect(result.warnings).toEqual([expect.stringContaining('http:// on a public host')]);
    },
  );

  it.each([
    'http://localhost:3000',
    'http://panel.localhost',
    'http://127.0.0.1:3000',
    'http://10.0.0.5',
    'http://172.16.4.2',
    'http://172.31.255.255',
    'http://192.168.1.20:8080',
    'http://[::1]:3000',
    'http://[fd00::1]',
    'https://panel.example.com',
  ])('does not warn about %s', (base) => {
    expect(read(base).warnings).toEqual([]);
  });
});

describe('the required convars', () => {
  it('names a missing BRIDGE_API_BASE with the server.cfg line that sets it', () => {
    const result = read('');
    expect(!result.ok && result.errors).toEqual([
      `${API_BASE_CONVAR} is not set. Add this line to server.cfg: set ${API_BASE_CONVAR} "https://panel.example.com"`,
    ]);
  });

  it('names a missing (or blank) BRIDGE_LEO_API_TOKEN with the server.cfg line that sets it', () => {
    for (const token of ['', '   ']) {
      const result = read('https://panel.example.com', token);
      expect(!result.ok && result.errors).toEqual([
        `${TOKEN_CONVAR} is not set. Add this line to server.cfg: set ${TOKEN_CONVAR} "the LEO_API_TOKEN of your panel"`,
      ]);
    }
  });

  it('reports both when neither is set', () => {
    const result = read('', '');
    expect(!result.ok && result.errors.map((error) => error.split(' ')[0])).toEqual([API_BASE_CONVAR, TOKEN_CONVAR]);
  });

  it('returns the trimmed token with a usable base', () => {
    const result = read('https://panel.example.com', `  ${TOKEN}\n`);
    expect(result).toEqual({
      ok: true,
      settings: { apiBase: 'https://panel.example.com', token: TOKEN },
      warnings: [],
    });
  });
});

describe('a short token', () => {
  it('is accepted with a warning to use a long random one', () => {
    const result = readPanelSettings(
      (name) => ({ BRIDGE_API_BASE: 'https://panel.example.com', BRIDGE_LEO_API_TOKEN: 'tok' })[name] ?? '',
    );
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      'BRIDGE_LEO_API_TOKEN is only 3 characters long; use a long random token (32 or more)',
    ]);
  });
});

describe('the server.cfg line a problem suggests', () => {
  const SET_LINE = /Add this line to server\.cfg: set (\w+) "([^"]*)"/;
  const problemsOf = (result: PanelSettingsResult) => [...(result.ok ? [] : result.errors), ...result.warnings];

  // Every kind of problem with BRIDGE_API_BASE, and the convars missing.
  it.each([
    ['no scheme', 'panel.example.com'],
    ['no scheme, with /api/leo', 'panel.example.com/api/leo'],
    ['no scheme, with /api/leo/ and a path', 'panel.example.com/community/api/leo/'],
    ['no scheme, with a query', 'panel.example.com/?token=abc'],
    ['/api/leo', 'https://panel.example.com/api/leo'],
    ['a query', 'https://panel.example.com/?token=abc'],
    ['a fragment', 'https://panel.example.com/#api'],
    ['credentials', 'https://user:secret@panel.example.com'],
    ['another scheme', 'ftp://panel.example.com/api/leo'],
    ['http:// on a public host', 'http://panel.example.com'],
    ['not a URL', 'https://panel example.com'],
    ['not set', ''],
  ])('for %s (%j), applied, starts the bridge without an error or a warning', (_kind, base) => {
    const convars: Record<string, string> = { [API_BASE_CONVAR]: base, [TOKEN_CONVAR]: TOKEN };
    const first = readPanelSettings((name) => convars[name] ?? '');
    const lines = problemsOf(first).flatMap((problem) => SET_LINE.exec(problem) ?? []);
    expect(lines.length, problemsOf(first).join('\n')).toBeGreaterThan(0);
    for (const problem of problemsOf(first)) {
      const [, name = '', value = ''] = SET_LINE.exec(problem) ?? [];
      if (name) convars[name] = value;
    }
    const next = readPanelSettings((name) => convars[name] ?? '');
    expect(problemsOf(next)).toEqual([]);
    expect(next.ok).toBe(true);
  });
});
