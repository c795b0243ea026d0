import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { app } from 'electron'
import type { ProgressInfo, UpdateInfo } from 'electron-updater'
import type { ProviderRuntimeOptions } from 'electron-updater/out/providers/Provider'
import { channelFile, readYamlMapping, UpdateDownloadError } from '../core'
import type { Logger, UpdateFeed, UpdateMetadata, UpdaterPort } from '../core'

/**
 * electron-updater as the core's `UpdaterPort` (decisions are in core/updates/service.ts). The feed is the
 * `generic` one electron-builder.yml publishes to, written into `resources/app-update.yml` at package
 * time. electron-updater does not read the feed's metadata itself: the core reads `latest*.yml` and its
 * signature and hands over what the signed bytes say, which a `custom` provider gives electron-updater as
 * its update info; electron-updater downloads the file it names, checks it against that (signed) sha512
 * and deletes it when it does not match, and the core checks the file again. Undefined in a development
 * build and in a package it cannot update (Linux: only an AppImage updates itself; a deb updates through
 * dpkg with the same feed). electron-updater (and its YAML, semver and fs libraries) is loaded only by a
 * packaged app: a development build never asks for it.
 */
export async function createElectronUpdater(log: Logger): Promise<UpdaterPort | undefined> {
  if (!app.isPackaged) return undefined
  const { default: electronUpdater } = await import('electron-updater')
  // The platform's updater (AppImage, deb, rpm, NSIS, macOS), made on first use.
  const updater = electronUpdater.autoUpdater
  updater.logger = {
    info: (message?: unknown) => log.debug(String(message)),
    warn: (message?: unknown) => log.info(String(message)),
    error: (message?: unknown) => log.info(String(message)),
    debug: (message?: unknown) => log.debug(String(message)),
  }
  // The core downloads when it decides to, and "Restart to update" installs; a quit installs too.
  updater.autoDownload = false
  updater.autoInstallOnAppQuit = true
  // Only a newer version (the core compares first, and refuses an older one).
  updater.allowDowngrade = false
  // Failures reach the core through the rejected promises; without a listener an `error` would throw.
  updater.on('error', (error: Error) => log.debug('updater error', { error: error.message }))
  if (!updater.isUpdaterActive()) return undefined

  let feed: Promise<UpdateFeed> | undefined
  /** The metadata the core verified: the only update info electron-updater sees. */
  let signed: UpdateInfo | undefined

  /** electron-updater's provider for the package's feed, answering with the signed metadata only. */
  class SignedMetadataProvider extends electronUpdater.Provider<UpdateInfo> {
    private readonly base: URL
    constructor(
      options: { readonly [key: string]: unknown },
      _updater: unknown,
      runtime: ProviderRuntimeOptions,
    ) {
      super(runtime)
      const url = String(options.url)
      this.base = new URL(url.endsWith('/') ? url : `${url}/`)
    }
    getLatestVersion(): Promise<UpdateInfo> {
      return signed ? Promise.resolve(signed) : Promise.reject(new Error('No signed update metadata'))
    }
    resolveFiles(info: UpdateInfo) {
      return info.files.map((file) => ({ url: new URL(file.url, this.base), info: file }))
    }
  }

  /** The feed electron-builder wrote into the package; only a `generic` one (a folder of files) is known. */
  const readFeed = async (): Promise<UpdateFeed> => {
    const { top } = readYamlMapping(await readFile(join(process.resourcesPath, 'app-update.yml'), 'utf8'))
    const url = top.get('url')
    if (top.get('provider') !== 'generic' || !url) throw new Error('app-update.yml names no generic feed')
    updater.setFeedURL({ provider: 'custom', updateProvider: SignedMetadataProvider, url })
    return { url, channelFile: channelFile(process.platform, process.arch) }
  }

  return {
    feed() {
      feed ??= readFeed().catch((error: unknown) => {
        feed = undefined
        throw error
      })
      return feed
    },
    async check(metadata: UpdateMetadata) {
      const [first] = metadata.files
      signed = {
        version: metadata.version,
        files: metadata.files,
        path: metadata.path ?? first.url,
        sha512: metadata.sha512 ?? first.sha512,
        releaseDate: metadata.releaseDate ?? '',
      }
      const result = await updater.checkForUpdates()
      return result?.isUpdateAvailable ? { version: result.updateInfo.version } : null
    },
    async download(onProgress) {
      const progress = (info: ProgressInfo) => onProgress(info.percent)
      updater.on('download-progress', progress)
      try {
        const files = await updater.downloadUpdate()
        updater.autoInstallOnAppQuit = true
        return files
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string }
        const corrupt = code === 'ERR_CHECKSUM_MISMATCH' || /checksum mismatch/i.test(message ?? '')
        throw new UpdateDownloadError(corrupt ? 'corrupt' : 'unreachable', message ?? String(error))
      } finally {
        updater.off('download-progress', progress)
      }
    },
    async discard(files) {
      // Nothing installs it at quit, and the file is gone.
      updater.autoInstallOnAppQuit = false
      await Promise.all(files.map((file) => rm(file, { force: true })))
    },
    install() {
      // Not silent: the new version starts after the install (autoRunAppAfterInstall).
      updater.quitAndInstall(false, true)
    },
  }
}
