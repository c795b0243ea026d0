import { installAsarRules } from './asar-rules.ts'
import { RESOURCES_ENV } from './packaged.ts'

/**
 * `--import`ed into a utility process of a packaged app: the same asar rules as its main process, and
 * `process.resourcesPath` (handed over in the environment, then taken out of it).
 */
installAsarRules()
const resourcesPath = process.env[RESOURCES_ENV]
delete process.env[RESOURCES_ENV]
if (resourcesPath) Object.defineProperty(process, 'resourcesPath', { value: resourcesPath, enumerable: true })
