import type { LibraryReport, MusicFolder, MusicFoldersState } from '@shared/ipc/music-folders'
import type { EventHub } from '../events'
import type { Handlers } from '../ipc/router'
import type { Logger } from '../log'
import type { KeyValueStore } from '../ports'
import type { BuiltinSpawner } from '../sources/phone-access'

const KEY = 'musicFolders'

interface Saved {
  folders: string[]
  status: Record<string, MusicFolder>
  message: string | null
  /** "Show the demo catalogue" as the person set it; unset: shown while no folder is chosen. */
  showDemo?: boolean
}

export interface MusicFoldersDeps {
  store: KeyValueStore
  events: EventHub
  log: Logger
  /** The system folder picker (the glue's `dialog.showOpenDialog`): an absolute path, or undefined. */
  pickFolder?: () => Promise<string | undefined>
  /** Starts the built-in data source again, so it imports the folders now chosen. */
  relaunch: () => Promise<void>
  /** Asks the running built-in data source to stop its import. */
  cancelImport: () => void
}

/**
 * Settings → Music on this computer: the folders the built-in data source imports (kept in main's store,
 * handed to the process as `--library` on every start), and what its import reports back (progress while
 * it runs, each folder's songs, last scan and unreadable files after). The import itself runs in the
 * data source's process, never in main.
 */
export function createMusicFolders(deps: MusicFoldersDeps) {
  const load = (): Saved => {
    const saved = deps.store.get<Saved>(KEY)
    return {
      folders: Array.isArray(saved?.folders) ? saved.folders.filter((f) => typeof f === 'string') : [],
      status: saved?.status && typeof saved.status === 'object' ? saved.status : {},
      message: typeof saved?.message === 'string' ? saved.message : null,
      ...(typeof saved?.showDemo === 'boolean' ? { showDemo: saved.showDemo } : {}),
    }
  }
  const demoShown = (saved = load()) => saved.showDemo ?? saved.folders.length === 0
  let importing: MusicFoldersState['importing'] = null

  const state = (): MusicFoldersState => {
    const saved = load()
    return {
      folders: saved.folders.map(
        (path) =>
          saved.status[path] ?? {
            path,
            songs: null,
            scannedAt: null,
            missing: false,
            unreadable: [],
            unreadableCount: 0,
          },
      ),
      importing,
      message: saved.message,
    }
  }
  const changed = () => deps.events.emit('library:changed', state())

  const setFolders = async (folders: string[]) => {
    const saved = load()
    deps.store.set(KEY, { ...saved, folders, message: null })
    importing = folders.length > 0 ? { found: 0, read: 0 } : null
    changed()
    await deps.relaunch()
  }

  return {
    /** The folders to pass to the data source on its start. */
    folders: (): string[] => load().folders,
    /** Whether the data source shows its demo catalogue (on its start: `--demo`, else `--no-demo`). */
    demoShown: (): boolean => demoShown(),
    /** "Show the demo catalogue": the data source starts again with it, or without it. */
    async setDemo(shown: boolean): Promise<{ shown: boolean }> {
      const saved = load()
      if (demoShown(saved) === shown && saved.showDemo === shown) return { shown }
      const restart = demoShown(saved) !== shown
      deps.store.set(KEY, { ...saved, showDemo: shown })
      deps.log.info('demo catalogue', { shown })
      if (restart) await deps.relaunch()
      return { shown }
    },
    state,
    /** Opens the system folder picker; a folder chosen (not already there) is added and imported. */
    async add(): Promise<MusicFoldersState> {
      const picked = await deps.pickFolder?.()
      if (!picked) return state()
      const folders = load().folders
      if (folders.includes(picked)) return state()
      deps.log.info('music folder added')
      await setFolders([...folders, picked])
      return state()
    },
    async remove(path: string): Promise<MusicFoldersState> {
      const folders = load().folders
      if (!folders.includes(path)) return state()
      deps.log.info('music folder removed')
      await setFolders(folders.filter((f) => f !== path))
      return state()
    },
    cancel(): MusicFoldersState {
      if (importing) deps.cancelImport()
      return state()
    },
    /** A report from the data source's process. */
    report(event: LibraryReport): void {
      if (event.type === 'library-progress') {
        importing = { found: event.found, read: event.read }
      } else {
        importing = null
        const saved = load()
        const status = { ...saved.status }
        for (const folder of event.folders)
          if (saved.folders.includes(folder.path)) status[folder.path] = folder
        for (const path of Object.keys(status)) if (!saved.folders.includes(path)) delete status[path]
        deps.store.set(KEY, { ...saved, status, message: event.message })
      }
      changed()
    },
  }
}

export type MusicFoldersService = ReturnType<typeof createMusicFolders>

type LibraryChannels = Extract<keyof Handlers, `library:${string}`>

export function createMusicFolderHandlers(folders: MusicFoldersService): Pick<Handlers, LibraryChannels> {
  return {
    'library:folders': () => folders.state(),
    'library:add-folder': () => folders.add(),
    'library:remove-folder': ({ path }) => folders.remove(path),
    'library:cancel-import': () => folders.cancel(),
    'library:demo': () => ({ shown: folders.demoShown() }),
    'library:set-demo': ({ shown }) => folders.setDemo(shown),
  }
}

/**
 * The glue's spawner with the chosen folders added to every start, and the process's library reports
 * routed to `folders`; `cancelImport` reaches the process running now.
 */
export function spawnWithMusicFolders(spawn: BuiltinSpawner, folders: () => MusicFoldersService) {
  let running: { send?(message: unknown): void } | undefined
  const spawner: BuiltinSpawner = async (launch, onExit) => {
    const child = await spawn(
      { ...launch, library: folders().folders(), demo: folders().demoShown() },
      onExit,
      (report) => folders().report(report),
    )
    running = child
    return child
  }
  return { spawner, cancelImport: () => running?.send?.({ type: 'library-cancel' }) }
}
