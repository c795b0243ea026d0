import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { installAsarRules } from './asar-rules.ts'
import { setPackagedApp } from './packaged.ts'

/**
 * What Electron's binary does when an installed app starts, for the stand-in's packaged launcher
 * (test/package/electron-dist.ts): `node --import register.ts packaged-boot.ts <resources> [args…]`.
 * Installs the asar rules, sets `process.resourcesPath`, finds the app as Electron does (`app.asar`, else
 * an `app` folder), reads its package.json's `main` from inside the archive and imports it. The app then
 * sees `process.argv` as an installed Electron app does: the executable, then the user's arguments.
 */
const [, , resourcesPath, ...userArgs] = process.argv
if (!resourcesPath) throw new Error('packaged-boot.ts needs the resources folder as its first argument')

installAsarRules()
Object.defineProperty(process, 'resourcesPath', { value: resourcesPath, enumerable: true })
const asar = join(resourcesPath, 'app.asar')
const appPath = existsSync(asar) ? asar : join(resourcesPath, 'app')
const json = JSON.parse(readFileSync(join(appPath, 'package.json'), 'utf8')) as { main?: string }
setPackagedApp({ appPath, resourcesPath })
process.argv = [process.execPath, ...userArgs]
await import(pathToFileURL(join(appPath, json.main ?? 'index.js')).href)
