import { isBuiltin } from 'node:module'
import { describe, expect, it } from 'vitest'
import { openAppArchive } from './package-files'
import { runProbe } from './run-probe'

/** Bare specifiers the built main, utility and worker entries (and their chunks) import or require. */
function bareSpecifiers(): string[] {
  const archive = openAppArchive()
  const found = new Set<string>()
  for (const [path] of archive.files()) {
    if (!path.startsWith('out/main/') || !path.endsWith('.js')) continue
    const code = archive.read(path).toString('utf8')
    const patterns = [
      /\bfrom\s*["']([@a-z][\w./@-]*)["']/g,
      /\bimport\s*["']([@a-z][\w./@-]*)["']/g,
      /\bimport\(\s*["']([@a-z][\w./@-]*)["']\s*\)/g,
      /\brequire\(\s*["']([@a-z][\w./@-]*)["']\s*\)/g,
    ]
    for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.add(match[1])
  }
  return [...found].filter((name) => !isBuiltin(name) && name !== 'electron').sort()
}

describe('the modules the installed app needs at run time', () => {
  it('are all in app.asar: every package the built entries import resolves and loads from inside it', () => {
    const specifiers = bareSpecifiers()
    // The entries do import packages (so an empty list would not pass silently).
    expect(specifiers).toEqual(
      expect.arrayContaining(['fastify', 'electron-store', 'qrcode', 'electron-updater']),
    )
    const results = runProbe('modules', ...specifiers) as Record<string, { url?: string; error?: string }>
    const missing = Object.entries(results).filter(
      ([, result]) => !result.url?.includes('/resources/app.asar/'),
    )
    expect(missing).toEqual([])
  })
})
