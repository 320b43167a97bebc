import type { AppConfig } from './config';

/**
 * pino's options for the server: JSON lines for log collectors, pino-pretty when a person reads a
 * terminal. Which requests are logged at all is the request-log policy (plugins/request-log.ts).
 */
export function loggerOptions(
  config: Pick<AppConfig, 'logLevel'>,
  { pretty = process.stdout.isTTY === true }: { pretty?: boolean } = {},
): Record<string, unknown> {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.body.password', 'req.body.signedTransaction'],
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}
