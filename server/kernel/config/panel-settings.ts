import { isIP } from 'node:net';
import { TOKEN_CONVAR } from '../../../shared/token-exposure.js';

export { TOKEN_CONVAR };

export const API_BASE_CONVAR = 'BRIDGE_API_BASE';

// The log hides the token wherever it appears, which only makes sense (and only protects) for a real secret.
const MIN_TOKEN_LENGTH = 16;

export interface PanelSettings {
  /** Base URL of the panel without a trailing slash; requests go to `<apiBase>/api/leo/...`. */
  apiBase: string;
  token: string;
}

export type PanelSettingsResult =
  | { ok: true; settings: PanelSettings; warnings: string[] }
  | { ok: false; errors: string[]; warnings: string[] };

const setLine = (name: string, example: string) => `Add this line to server.cfg: set ${name} "${example}"`;

const isPrivateOrLoopback = (hostname: string): boolean => {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) {
    const [a = 0, b = 0] = host.split('.').map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (isIP(host) === 6) return host === '::1' || host.startsWith('fc') || host.startsWith('fd');
  return false;
};

const API_LEO_SUFFIX = /\/api\/leo$/i;
const EXAMPLE_BASE = 'https://panel.example.com';

/** The base the bridge uses: origin and path, without /api/leo and trailing slashes. */
const baseOf = (url: URL): string => `${url.origin}${url.pathname.replace(/\/+$/, '').replace(API_LEO_SUFFIX, '')}`;

/**
 * The value a suggested server.cfg line sets: the base cleaned of everything that draws an error or a warning
 * (no /api/leo, query, fragment or credentials; https:// unless the host is private), so the line applied starts
 * the bridge without one.
 */
function suggestedBase(url: URL): string {
  const clean = new URL(baseOf(url).replace(/^[a-z][a-z0-9+.-]*:/i, 'https:'));
  if (url.protocol === 'http:' && isPrivateOrLoopback(url.hostname)) clean.protocol = 'http:';
  return baseOf(clean);
}

function parseApiBase(raw: string, warnings: string[]): { apiBase?: string; error?: string } {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    let meant = EXAMPLE_BASE;
    try {
      meant = suggestedBase(new URL(`https://${raw}`));
    } catch {}
    return { error: `${API_BASE_CONVAR} "${raw}" has no scheme. ${setLine(API_BASE_CONVAR, meant)}` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: `${API_BASE_CONVAR} "${raw}" is not a valid URL. ${setLine(API_BASE_CONVAR, EXAMPLE_BASE)}` };
  }
  const fix = setLine(API_BASE_CONVAR, suggestedBase(url));
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { error: `${API_BASE_CONVAR} must be an http:// or https:// URL, not ${url.protocol}//. ${fix}` };
  }
  if (url.search || url.hash || url.username || url.password) {
    return {
      error: `${API_BASE_CONVAR} must not hold a query, a fragment or credentials; the token goes in ${TOKEN_CONVAR}. ${fix}`,
    };
  }
  const apiBase = baseOf(url);
  if (API_LEO_SUFFIX.test(url.pathname.replace(/\/+$/, ''))) {
    warnings.push(`${API_BASE_CONVAR} should be the panel's base URL without /api/leo; using ${apiBase}. ${fix}`);
  }
  if (url.protocol === 'http:' && !isPrivateOrLoopback(url.hostname)) {
    warnings.push(
      `${API_BASE_CONVAR} uses http:// on a public host: the API token travels unencrypted. Use https:// in production. ${fix}`,
    );
  }
  return { apiBase };
}

/** Reads and checks the two required convars; a problem names the convar and the server.cfg line that fixes it. */
export function readPanelSettings(getConvar: (name: string) => string): PanelSettingsResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const rawBase = getConvar(API_BASE_CONVAR).trim();
  const token = getConvar(TOKEN_CONVAR).trim();

  let apiBase: string | undefined;
  if (rawBase === '') {
    errors.push(`${API_BASE_CONVAR} is not set. ${setLine(API_BASE_CONVAR, EXAMPLE_BASE)}`);
  } else {
    const parsed = parseApiBase(rawBase, warnings);
    if (parsed.error) errors.push(parsed.error);
    apiBase = parsed.apiBase;
  }
  if (token === '') {
    errors.push(`${TOKEN_CONVAR} is not set. ${setLine(TOKEN_CONVAR, 'the LEO_API_TOKEN of your panel')}`);
  }
  if (token !== '' && token.length < MIN_TOKEN_LENGTH) {
    warnings.push(`${TOKEN_CONVAR} is only ${token.length} characters long; use a long random token (32 or more)`);
  }
  if (errors.length > 0 || apiBase === undefined) return { ok: false, errors, warnings };
  return { ok: true, settings: { apiBase, token }, warnings };
}
