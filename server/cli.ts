import { parseArgs } from './args'
import { startDataSource } from './index'

async function main(): Promise<void> {
  let opts
  try {
    opts = parseArgs(process.argv.slice(2))
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`)
    process.stderr.write(
      'Usage: npm run serve -- --host 127.0.0.1 --port 4000 --data ./data [--demo N] [--library DIR] [--public-url URL] [--owner NAME] [--log]\n',
    )
    process.exit(2)
  }
  const handle = await startDataSource(opts)
  process.stdout.write(`Listening on ${handle.url}\n`)
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    handle.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((err: unknown) => {
  process.stderr.write(`Could not start the data source: ${(err as Error)?.message ?? String(err)}\n`)
  process.exit(1)
})
