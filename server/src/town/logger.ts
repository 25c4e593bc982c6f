// A small levelled logger. Jobs, rooms and the runtime log through it, so tests can silence or capture it.

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => console.log(line)): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const at = (l: Exclude<LogLevel, 'silent'>) => (message: string) => {
    if (LOG_LEVELS.indexOf(l) >= min) write(`${new Date().toISOString()} ${l.padEnd(5)} ${message}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
