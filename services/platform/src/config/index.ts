export { ConfigError, combineConfigs, defineConfig, env, parseDuration } from './config.ts';
export type {
  ConfigField,
  ConfigKind,
  ConfigOf,
  ConfigSchema,
  ConfigSpec,
  DefineConfigOptions,
  DescribedKey,
} from './config.ts';
export { platformConfig, platformFields } from './platform-config.ts';
export type { PlatformConfig } from './platform-config.ts';
