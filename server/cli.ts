import { USAGE, parseArgs } from './args'
import { startDataSource } from './index'
import { reclaimMemory } from './reclaim'

async function main(): Promise<void> {
  let opts
  try {
    opts = parseArgs(process.argv.slice(2))
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}`)
    process.exit(2)
  }
  if (opts.help) {
    process.stdout.write(USAGE)
    process.exit(0)
  }
  const handle = await startDataSource({ ...opts, reclaimMemory })
  process.stdout.write(`Listening on ${handle.url}\n`)
  if (handle.generatedPassphrase) {
    process.stdout.write(
      `Owner passphrase (shown only this once; your phone asks for it when you sign in): ${handle.generatedPassphrase}\n` +
        'Set your own with --owner-passphrase.\n',
    )
  }
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
