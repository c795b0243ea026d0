export {
  createUpdateService,
  UpdateDownloadError,
  UPDATE_CHECK_INTERVAL_MS,
  UPDATE_RETRY_MS,
} from './service'
export type { UpdaterPort, UpdateService } from './service'
export { createUpdateHandlers } from './handlers'
