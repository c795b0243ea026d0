/** A named logger per main-process module. Never pass a credential to it. */
export interface Logger {
  debug(message: string, extra?: Record<string, unknown>): void
  info(message: string, extra?: Record<string, unknown>): void
  warn(message: string, extra?: Record<string, unknown>): void
  error(message: string, extra?: Record<string, unknown>): void
}
export type LoggerFactory = (name: string) => Logger

const LEVELS = ['debug', 'info', 'warn', 'error'] as const
type Level = (typeof LEVELS)[number]

export function createConsoleLogger(minLevel: Level = 'info'): LoggerFactory {
  const min = LEVELS.indexOf(minLevel)
  return (name) => {
    const write = (level: Level) => (message: string, extra?: Record<string, unknown>) => {
      if (LEVELS.indexOf(level) < min) return
      const line = `[${new Date().toISOString()}] ${level.toUpperCase()} ${name}: ${message}`
      const out = level === 'error' || level === 'warn' ? console.error : console.log
      if (extra) out(line, extra)
      else out(line)
    }
    return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
  }
}

export const silentLogger: LoggerFactory = () => ({ debug() {}, info() {}, warn() {}, error() {} })
