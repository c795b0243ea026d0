import type { DataSourceOptions } from './index'

/** Parses `--host H --port N --data DIR [--demo N] [--library DIR] [--public-url URL] [--owner NAME] [--log]`. */
export function parseArgs(argv: readonly string[]): DataSourceOptions & { port: number; host: string } {
  const opts: DataSourceOptions & { port: number; host: string } = {
    dataDir: './data',
    host: '127.0.0.1',
    port: 4000,
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined]
    const value = (): string => {
      const v = inline ?? argv[++i]
      if (v === undefined) throw new Error(`Missing value for ${flag}`)
      return v
    }
    const int = (): number => {
      const v = value()
      if (!/^\d+$/.test(v)) throw new Error(`${flag} needs a non-negative integer, got "${v}"`)
      return Number(v)
    }
    switch (flag) {
      case '--host':
        opts.host = value()
        break
      case '--port':
        opts.port = int()
        break
      case '--data':
      case '--data-dir':
        opts.dataDir = value()
        break
      case '--demo':
        opts.demo = int()
        break
      case '--library':
        opts.library = value()
        break
      case '--public-url':
        opts.publicUrl = value()
        break
      case '--owner':
        opts.ownerName = value()
        break
      case '--log':
        opts.logger = true
        break
      default:
        throw new Error(`Unknown option ${arg}`)
    }
  }
  return opts
}
