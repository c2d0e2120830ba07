export { childLogger, createLogger } from './logger.ts';
export type { CreateLoggerOptions, LogLevel, Logger } from './logger.ts';
