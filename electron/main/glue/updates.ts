import { app } from 'electron'
import electronUpdater from 'electron-updater'
import type { ProgressInfo } from 'electron-updater'
import { UpdateDownloadError } from '../core'
import type { Logger, UpdaterPort } from '../core'

/**
 * electron-updater as the core's `UpdaterPort` (decisions are in core/updates/service.ts). The feed is the
 * `generic` one electron-builder.yml publishes to, written into `resources/app-update.yml` at package
 * time; electron-updater verifies a download against the sha512 in `latest-linux.yml` (`latest.yml`,
 * `latest-mac.yml`) and deletes it when it does not match. Undefined in a development build and in a
 * package it cannot update (Linux: only an AppImage updates itself; a deb updates through dpkg with
 * the same feed).
 */
export function createElectronUpdater(log: Logger): UpdaterPort | undefined {
  if (!app.isPackaged) return undefined
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
  // Failures reach the core through the rejected promises; without a listener an `error` would throw.
  updater.on('error', (error: Error) => log.debug('updater error', { error: error.message }))
  if (!updater.isUpdaterActive()) return undefined
  return {
    async check() {
      const result = await updater.checkForUpdates()
      return result?.isUpdateAvailable ? { version: result.updateInfo.version } : null
    },
    async download(onProgress) {
      const progress = (info: ProgressInfo) => onProgress(info.percent)
      updater.on('download-progress', progress)
      try {
        await updater.downloadUpdate()
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string }
        const corrupt = code === 'ERR_CHECKSUM_MISMATCH' || /checksum mismatch/i.test(message ?? '')
        throw new UpdateDownloadError(corrupt ? 'corrupt' : 'unreachable', message ?? String(error))
      } finally {
        updater.off('download-progress', progress)
      }
    },
    install() {
      // Not silent: the new version starts after the install (autoRunAppAfterInstall).
      updater.quitAndInstall(false, true)
    },
  }
}
