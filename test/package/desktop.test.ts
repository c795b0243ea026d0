import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { stageDeb } from './build'
import type { StagedDeb } from './build'

const ROOT = resolve(import.meta.dirname, '../..')

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const bytes = readFileSync(file)
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)]
}

/**
 * Linux desktop integration in the deb, as electron-builder stages it for fpm (which cannot be fetched
 * here, so the deb file itself is not made: test/package/build.ts `stageDeb`). The AppImage carries the
 * same .desktop entry and icons; its tool (appimagetool) cannot be fetched either.
 */
describe('the deb: desktop entry, icons and AppArmor profile', () => {
  let deb: StagedDeb
  beforeAll(async () => {
    deb = await stageDeb()
  }, 120_000)

  it('installs cadence.desktop with the WM class Electron gives the windows (package.json desktopName)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { desktopName: string }
    expect(pkg.desktopName).toBe('cadence.desktop')
    expect(deb.files['/usr/share/applications/cadence.desktop']).toBeDefined()
    // The file's groups: `[Desktop Entry]`, then one `[Desktop Action <id>]` per launcher action.
    const groups = new Map<string, Record<string, string>>()
    let group = ''
    for (const line of deb.desktopEntry.split('\n')) {
      const heading = /^\[(.+)\]$/.exec(line.trim())
      if (heading) groups.set((group = heading[1]!), {})
      else if (line.includes('='))
        groups.get(group)![line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1)
    }
    const entry = groups.get('Desktop Entry')!
    // The launcher's menu: play/pause, next, previous, reaching the running app (its second instance).
    expect(entry.Actions?.split(';').filter(Boolean)).toEqual(['PlayPause', 'Next', 'Previous'])
    expect(groups.get('Desktop Action Next')).toMatchObject({ Exec: 'cadence --next' })
    expect(groups.get('Desktop Action Previous')).toMatchObject({ Exec: 'cadence --previous' })
    expect(groups.get('Desktop Action PlayPause')).toMatchObject({ Exec: 'cadence --play-pause' })
    expect(entry).toMatchObject({
      Name: 'Cadence',
      Exec: '/opt/Cadence/cadence %U',
      Icon: 'cadence',
      StartupWMClass: pkg.desktopName.replace(/\.desktop$/, ''),
      Type: 'Application',
      Categories: 'Audio;',
    })
    expect(deb.files['/opt/Cadence']).toBe(`${deb.unpacked}/`)
  })

  it('installs the icon in the hicolor theme at the usual sizes, each file its size', () => {
    const sizes = [16, 24, 32, 48, 64, 128, 256, 512]
    for (const size of sizes) {
      const source = deb.files[`/usr/share/icons/hicolor/${size}x${size}/apps/cadence.png`]
      expect(source, `${size}x${size}`).toBeDefined()
      expect(pngSize(source)).toEqual([size, size])
    }
  })

  it('installs the AppArmor profile the README describes, which lets the sandbox use user namespaces', () => {
    expect(deb.appArmorProfile).toContain('abi <abi/4.0>,')
    expect(deb.appArmorProfile).toMatch(/^profile cadence \/opt\/Cadence\/cadence flags=\(unconfined\) \{$/m)
    expect(deb.appArmorProfile).toMatch(/^\s+userns,$/m)
    // electron-builder's after-install script copies it into place and loads it.
    expect(deb.afterInstall).toContain("APPARMOR_PROFILE_SOURCE='/opt/Cadence/resources/apparmor-profile'")
    expect(deb.afterInstall).toContain("APPARMOR_PROFILE_TARGET='/etc/apparmor.d/cadence'")
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(readme).toContain('/etc/apparmor.d/cadence')
  })
})
