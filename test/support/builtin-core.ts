import { join } from 'node:path'
import type { BuiltinLaunch, Core } from '@main/core'
import { startDataSource } from '@server/index'
import type { DataSourceOptions } from '@server/index'
import { createTestCore } from './test-core'

/**
 * Main's core with its built-in data source, not yet started: the real server in-process under `root/data`, started from
 * each launch as the utility process would be (its host, port, passphrase, nonce and music folders; the
 * import's reports back to main; a cancel main sends reaches the import). `serverOptions` adds what the
 * test is about (demo size, the import in the background); the folder picker answers `pick()`.
 * `launches` lists what main asked for; `running.url` is the server's address now. The caller starts it
 * (`core.builtin.start()`), once it listens to what it needs; `stop()` disposes of the core, then stops
 * the server.
 */
export function builtinCore(
  root: string,
  pick: () => string | undefined,
  serverOptions: (launch: BuiltinLaunch) => Partial<DataSourceOptions>,
): { core: Core; launches: BuiltinLaunch[]; running: { url: string }; stop: () => Promise<void> } {
  const launches: BuiltinLaunch[] = []
  const running = { url: '' }
  const core = createTestCore({
    spawnBuiltin: async (launch, _onExit, onLibrary) => {
      launches.push(launch)
      const handle = await startDataSource({
        dataDir: join(root, 'data'),
        host: launch.host,
        port: launch.port,
        ownerPassphrase: launch.passphrase,
        instanceNonce: launch.nonce,
        library: launch.library,
        onLibrary,
        ...serverOptions(launch),
      })
      running.url = handle.url
      return {
        url: handle.url,
        stop: () => handle.close(),
        send: (m: unknown) =>
          void ((m as { type?: string }).type === 'library-cancel' && handle.cancelLibraryImport()),
      }
    },
    pickFolder: async () => pick(),
  })
  return {
    core,
    launches,
    running,
    stop: async () => {
      await core.dispose()
      await core.builtin.stop()
    },
  }
}
