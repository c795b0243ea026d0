import type { DataSourceState, PlayerCommandName, PlayerState } from '@shared/ipc/contract'
import { createAppHandlers } from './app/handlers'
import { createAuthHandlers } from './auth/handlers'
import { createExtensionHandlers } from './account'
import { createAuthService } from './auth/service'
import { createVault } from './auth/vault'
import { createCatalogHandlers } from './catalog/handlers'
import { createCollectionHandlers } from './collection/handlers'
import { createCollectionService } from './collection/service'
import { createEventHub } from './events'
import { createIpcRouter } from './ipc/router'
import type { Handlers } from './ipc/router'
import { silentLogger } from './log'
import { keepLikesInStep, wireLikes } from './likes/wire'
import { createListen } from './listen'
import { createHistory } from './history'
import { createShortcuts } from './shortcuts'
import { createIntegrations } from './integrations'
import { createMusicFolderHandlers, createMusicFolders, spawnWithMusicFolders } from './library/folders'
import { wireMedia } from './media/wire'
import { createPlayerHandlers, legacySessionKey } from './player/handlers'
import { createQuitSave } from './player/quit'
import { offlineAware, wireOffline } from './offline/wire'
import { noWindows, realTimers, refuseAll } from './ports'
import { createSourceNet, sourceHosts } from './net'
import { createSettingsHandlers } from './settings/handlers'
import { RENEW_PASSPHRASE_REQUEST } from './sources/handlers'
import { createSettingsService } from './settings/service'
import { createActiveSource, createSourceClients } from './sources/active'
import { createSourcesHandlers } from './sources/handlers'
import { isOurInstance } from './sources/instance'
import { createPhoneAccess, makePhonePassphrase } from './sources/phone-access'
import { BUILTIN_ID, createSourceRegistry } from './sources/registry'
import { superviseDataSource } from './sources/supervisor'
import { createUpdateHandlers, createUpdateService, createUpdateVerifier, UPDATE_PUBLIC_KEY } from './updates'

import type { Core, CoreDeps } from './types'

export type { Core, CoreDeps } from './types'

export { QUIT_SAVE_TIMEOUT_MS } from './player/quit'

// Only a source whose QR key has no image needs it: loaded then, not at start.
const renderQrDefault = async (text: string) =>
  (await import('qrcode')).default.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 256 })

export function createCore(deps: CoreDeps): Core {
  const log = deps.log ?? silentLogger
  const timers = deps.timers ?? realTimers
  const events = createEventHub()
  const store = deps.store
  const settings = createSettingsService({ store, events, log: log('settings') })
  const vault = createVault({ store, cipher: deps.cipher, settings: settings.get, log: log('vault') })
  const registry = createSourceRegistry({ store, fetch: deps.fetch, probe: deps.probeSources })
  const randomInt = deps.randomInt ?? ((max: number) => Math.floor(Math.random() * max))
  const phone = createPhoneAccess({
    settings: settings.get,
    vault,
    store,
    makePassphrase: () => makePhonePassphrase(randomInt),
    networkAddresses: deps.networkAddresses ?? (() => []),
    isOurs: (url, nonce) => isOurInstance(url, nonce, deps.fetch ?? fetch),
    log: log('phone-access'),
  })
  registry.setBuiltin(deps.builtinSourceUrl, deps.builtinSourceUrl ? 'ready' : 'starting')
  // What a source points main at (media, covers) is fetched under that source's policy only.
  const net = createSourceNet({
    policy: (sourceId) => ({ hosts: sourceHosts(registry.get(sourceId)) }),
    lookup: deps.lookup,
    fetch: deps.fetch,
  })

  const clients = createSourceClients({
    registry,
    vault,
    // Any answer from the source ends offline mode (a cached answer proves nothing, so not in `call`).
    fetch: offlineAware(
      () => deps.fetch ?? globalThis.fetch,
      () => offline.answered(),
    ),
    timeoutMs: deps.timeoutMs,
    log: log('api'),
  })

  const auth = createAuthService({
    vault,
    sources: registry,
    client: clients.get,
    events,
    store,
    windows: deps.windows ?? noWindows,
    timers,
    settings: settings.get,
    renderQr: deps.renderQr ?? renderQrDefault,
    fetch: deps.fetch,
    log: log('auth'),
    autoSignInBuiltin: deps.autoSignInBuiltin,
    builtinPassphrase: () => (deps.spawnBuiltin ? phone.passphrase() : deps.builtinPassphrase),
  })

  settings.onChange((next, previous) => {
    if (
      next.keepSignedIn !== previous.keepSignedIn ||
      next.allowInsecureStorage !== previous.allowInsecureStorage
    ) {
      vault.applySettings()
      events.emit('auth:changed', auth.state())
    }
    if (next.phoneSignIn !== previous.phoneSignIn && phone.needsRelaunch()) {
      log('phone-access').info(
        next.phoneSignIn ? 'opening the built-in data source to the network' : 'back to loopback only',
      )
      void supervisor?.relaunch()
    }
  })

  let playerState: PlayerState | null = null
  const quitSave = createQuitSave({ events, song: () => playerState?.song })

  const collection = createCollectionService({
    store,
    events,
    log: log('collection'),
    activeSourceId: () => registry.active().id,
    sources: () => registry.list().sources,
    lookUpSong: (id) => active.call((api) => api.songDetail(id, auth.userId())),
  })

  const active = createActiveSource({
    registry,
    clients,
    auth,
    collection,
    events,
    forgetSession: (id) => store.delete(legacySessionKey(id)),
  })
  const { emitSources } = active
  const { call, offline } = wireOffline({
    mediaDir: deps.mediaDir,
    limits: deps.mediaLimits,
    freeSpace: deps.freeSpace,
    store,
    settings,
    events,
    active,
    clients,
    registry,
    userId: () => auth.userId(),
    fetch: deps.fetch,
    fetchFor: net.fetchFor,
    timers,
    log,
  })

  // Beyond the document: what each source offers (learnt by use), the liked songs, account playlists.
  const { capabilities, likedSongs } = wireLikes({
    call,
    store,
    events,
    log,
    registry,
    userId: () => auth.userId(),
  })

  // The media scheme: main resolves (and re-resolves) the signed URL and streams it to the renderer.
  const { media, resolved } = wireMedia({
    call,
    callOn: active.callOn,
    userId: (sourceId) => auth.userId(sourceId),
    fetchFor: net.fetchFor,
    activeSourceId: () => registry.active().id,
    cached: offline.mediaSource,
    covers: offline.cover,
    rememberCopy: offline.rememberResolved,
    log: log('media'),
  })

  const listen = createListen({
    ports: deps.listen ?? {},
    settings,
    events,
    // The song playing is the active source's (the queue holds no other yet): its cover under its policy.
    fetch: (input, init) => net.fetchFor(registry.active().id)(input, init),
    log,
  })

  const updates = createUpdateService({
    updater: deps.updater,
    verifier: createUpdateVerifier({
      fetch: (input, init) => (deps.fetch ?? globalThis.fetch)(input, init),
      publicKey: deps.updatePublicKey ?? UPDATE_PUBLIC_KEY,
    }),
    currentVersion: deps.appInfo.version,
    enabled: () => settings.get().autoUpdate,
    timers,
    now: deps.now ?? Date.now,
    log: log('updates'),
    onState: (state) => events.emit('updates:changed', state),
  })
  settings.onChange(() => updates.settingChanged())

  const history = createHistory({ path: deps.historyPath, events, timers, log: log('history') })
  // ListenBrainz, Last.fm, Discord and LRCLIB: off until turned on; paused by a private session.
  const integrations = createIntegrations(deps, {
    vault,
    events,
    timers,
    log,
    settings,
    history: history.service,
  })

  const players = createPlayerHandlers({
    call,
    callOn: active.callOn,
    userId: (sourceId) => auth.userId(sourceId),
    activeSourceId: () => registry.active().id,
    sourceIds: () => registry.list().sources.map((source) => source.id),
    store,
    onState: (state) => {
      const before = playerState?.song?.id
      playerState = state
      deps.onPlayerState?.(state)
      // The song now playing: its heart asked of the source where it can say (GET /song/like).
      if (state.song && String(state.song.id) !== String(before)) likedSongs.playing(state.song.id)
      // The copy into the cache of a song the player left may stop.
      offline.playing(state.song ? String(state.song.id) : undefined)
    },
    onSessionSaved: () => quitSave.saved(),
    mediaUrl: resolved,
  })

  const shortcuts = createShortcuts({
    port: deps.shortcuts,
    settings,
    events,
    log: log('shortcuts'),
    onPress: (action) => {
      if (action === 'desktop-lyrics') return listen.desktopLyrics.toggle()
      const liked = playerState?.song?.liked
      const command =
        action === 'play-pause' ? 'toggle' : action === 'like' ? (liked ? 'unlike' : 'like') : action
      events.emit('player:command', { command })
    },
  })

  const musicSpawn = deps.spawnBuiltin && spawnWithMusicFolders(deps.spawnBuiltin, () => musicFolders)
  const musicFolders = createMusicFolders({
    store,
    events,
    log: log('library'),
    pickFolder: deps.pickFolder,
    relaunch: () => supervisor?.relaunch() ?? Promise.resolve(),
    cancelImport: () => musicSpawn?.cancelImport(),
  })
  const handlers: Handlers = {
    ...createMusicFolderHandlers(musicFolders),
    ...createAuthHandlers(auth, deps.openExternal ?? (() => undefined)),
    ...createAppHandlers({
      appInfo: deps.appInfo,
      copyText: deps.copyText,
    }),
    ...createCatalogHandlers({
      call,
      userId: () => auth.userId(),
      callOn: active.callOn,
      activeSourceId: () => registry.active().id,
    }),
    ...players,
    ...createSourcesHandlers({
      list: () => registry.list(),
      add: async (input) => {
        const added = await registry.add(input)
        emitSources()
        return added
      },
      remove: (id) => {
        capabilities.forget(id)
        void offline.forgetSource(id)
        return active.remove(id)
      },
      activate: (id) => {
        const changing = registry.active().id !== id
        const result = active.activate(id)
        if (changing) offline.sourceChanged()
        return result
      },
      phoneAccess: (args) => phone.info(registry.get(BUILTIN_ID)?.state === 'ready', args?.show === true),
      renewPhonePassphrase: async () => {
        const yes = await (deps.confirm ?? refuseAll)(RENEW_PASSPHRASE_REQUEST).catch(() => false)
        if (!yes) return false
        phone.renew()
        // Open to the network now: restart with the new one at once (the old one stops working).
        if (phone.onNetwork()) await supervisor?.relaunch()
        return true
      },
      setLocalHost: ({ id, host }) => {
        const changed = registry.setLocalHost(id, host)
        emitSources()
        return changed
      },
      rename: ({ id, name }) => {
        const renamed = registry.rename(id, name)
        emitSources()
        return renamed
      },
    }),
    ...createSettingsHandlers(settings, deps.confirm ?? refuseAll),
    ...listen.handlers,
    ...createCollectionHandlers(collection),
    ...createExtensionHandlers({ call, capabilities, likes: likedSongs }),
    ...createUpdateHandlers(updates),
    ...offline.handlers,
    ...history.handlers,
    ...shortcuts.handlers,
    ...integrations.handlers,
    // Offline, a song on disk resolves without the source; one that is not is skipped with the reason.
    'player:resolve': offline.wrapResolve(players['player:resolve']),
  }
  // A like made here keeps the liked songs in step.
  keepLikesInStep(handlers, likedSongs, () => registry.active().id)

  const router = createIpcRouter(handlers, { isTrustedSender: deps.isTrustedSender, log: log('ipc') })

  /** The built-in data source (re)started, is restarting, or gave up. */
  const setBuiltin = (url: string | undefined, state: DataSourceState) => {
    const before = registry.get(BUILTIN_ID)
    registry.setBuiltin(url, state)
    if (before?.url !== (url ?? '') || before?.state !== state) emitSources()
    if (registry.active().id === BUILTIN_ID && state !== 'starting') offline.builtinState(state === 'ready')
    // A new process (its own port) may have been started with another passphrase, which revokes every
    // credential: check the sign-in again (and sign in again by itself) before the app relies on it.
    const restarted = before?.url !== (url ?? '')
    if (
      state === 'ready' &&
      registry.active().id === BUILTIN_ID &&
      (auth.state().status !== 'signed-in' || restarted)
    ) {
      void auth.check(BUILTIN_ID)
    }
  }
  const supervisor = musicSpawn
    ? superviseDataSource({
        start: phone.starter(musicSpawn.spawner),
        onState: setBuiltin,
        timers,
        log: log('data-source'),
      })
    : undefined

  return {
    router,
    handlers,
    events,
    settings,
    sources: registry,
    auth,
    api: active.api,
    start: () => auth.check(),
    setBuiltin,
    builtin: {
      start: () => supervisor?.start() ?? Promise.resolve(),
      stop: () => supervisor?.stop() ?? Promise.resolve(),
    },
    playerCommand(command: PlayerCommandName) {
      events.emit('player:command', { command })
    },
    beforeQuit: (timeoutMs) => quitSave.beforeQuit(timeoutMs),
    playerState: () => playerState,
    /** The media scheme's handler (`protocol.handle` in the app, a route in the end-to-end harness). */
    media,
    listen,
    loginWindowClosed: () => auth.loginWindowClosed(),
    /** The main window got focus: an offline source is asked at once whether it is back. */
    windowFocused: () => offline.monitor.checkNow(),
    /** The installed app's updates: `start()` once the window is open; `install()` is "Restart to update". */
    updates,
    /** The media cache, downloads and offline mode (the media scheme serves `offline.playable()`). */
    offline,
    history: history.service,
    shortcuts,
    scrobble: integrations.scrobble,
    async dispose() {
      shortcuts.dispose()
      auth.dispose()
      updates.dispose()
      const closing = offline.dispose()
      net.dispose()
      history.service.dispose()
      integrations.dispose()
      await closing
    },
  }
}

export type { ConfirmPort, ConfirmRequest, KeyValueStore, SecretCipher, Timers, WindowsPort } from './ports'
export { createMemoryStore } from './ports'

// ---- the core's one face: everything the glue uses comes from here ----
export * from './face'
