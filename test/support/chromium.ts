import { existsSync } from 'node:fs'

/** Headless Debian Chromium as every browser test starts it (e2e harness, stand-in Electron). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
]

export function findChromium(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (path): path is string => !!path,
  )
  const found = candidates.find((path) => existsSync(path))
  if (!found) {
    throw new Error(
      'Chromium not found. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), ' +
        'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
    )
  }
  return found
}
