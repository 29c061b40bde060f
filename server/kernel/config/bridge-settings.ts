import { type BridgeConfig, validateConfig } from '../../../shared/config/index.js';
import { createLogger, type Logger } from '../log.js';
import type { ServerPort } from '../server-port.js';
import { type PanelSettings, readPanelSettings, TOKEN_CONVAR } from './panel-settings.js';
import { REDIS_CA_FILE_CONVAR, REDIS_URL_CONVAR, redisSecretsOf } from './redis-convar.js';

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
