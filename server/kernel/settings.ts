// The owner's settings: config.lua and the convars, read and checked once at start, each problem told on the console.

import { isIP } from 'node:net';
import { type BridgeConfig, validateConfig } from '../../shared/config/index.js';
import { TOKEN_CONVAR } from '../../shared/token-exposure.js';
import { createLogger, type Logger } from './log.js';
import { REDIS_CA_FILE_CONVAR, REDIS_URL_CONVAR, redisSecretsOf } from './redis-convar.js';
import type { ServerPort } from './server-port.js';

export interface BridgeSettings {
  /** Hides the token wherever it appears. */
  logger: Logger;
  config: BridgeConfig;
  /** Undefined when the convars are missing or unusable: the bridge stays inactive. */
  panel: PanelSettings | undefined;
  /** The token convar as set, even when the settings are unusable (the token exposure check asks clients for it). */
  token: string;
  /** BRIDGE_REDIS_URL as set ('' when unset: the server runs alone). */
  redisUrl: string;
  /** BRIDGE_REDIS_CA_FILE as set ('' when unset: `rediss://` trusts Node's own CAs). */
  redisCaFile: string;
}

/** config.lua and the convars, read and checked, each problem told once on the console, naming what to fix. */
export function readBridgeSettings(port: Pick<ServerPort, 'print' | 'readConfig' | 'convar'>): BridgeSettings {
  let token = '';
  // The Redis password is a secret from the first line, whether or not the URL reads.
  const redisUrl = port.convar(REDIS_URL_CONVAR).trim();
  const redisSecrets = redisSecretsOf(redisUrl);
  const redisCaFile = port.convar(REDIS_CA_FILE_CONVAR).trim();
  const logger = createLogger({
    print: (line) => port.print(line),
    secrets: () => [token],
    wholeSecrets: () => redisSecrets,
  });

  const rawConfig = port.readConfig();
  if ('error' in rawConfig) logger.error(`config.lua could not be read (${rawConfig.error}); using the defaults`);
  const { config, problems } = validateConfig('value' in rawConfig ? rawConfig.value : undefined);
  logger.setLevel(config.LogLevel);
  for (const problem of problems) logger.warn(`config.lua: ${problem.message}`);

  const settings = readPanelSettings((name) => port.convar(name));
  // Redacted even when the settings are unusable: an owner may have pasted the token into the base URL as well.
  token = port.convar(TOKEN_CONVAR).trim();
  for (const warning of settings.warnings) logger.warn(warning);
  if (settings.ok) {
    token = settings.settings.token;
    return { logger, config, panel: settings.settings, token, redisUrl, redisCaFile };
  }
  for (const error of settings.errors) logger.error(error);
  logger.error('the bridge stays inactive until the convars above are set and the resource is restarted');
  return { logger, config, panel: undefined, token, redisUrl, redisCaFile };
}

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
