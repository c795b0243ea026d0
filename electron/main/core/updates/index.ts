export {
  createUpdateService,
  UpdateDownloadError,
  UPDATE_CHECK_INTERVAL_MS,
  UPDATE_RETRY_MS,
} from './service'
export type { UpdaterPort, UpdateService } from './service'
export { createUpdateHandlers } from './handlers'
export {
  channelFile,
  compareVersions,
  createUpdateVerifier,
  parseUpdateMetadata,
  readYamlMapping,
  UpdateRefusedError,
  verifyMetadataSignature,
} from './signed-feed'
export type { UpdateFeed, UpdateMetadata, UpdateVerifier } from './signed-feed'
export { UPDATE_PUBLIC_KEY } from './public-key'
