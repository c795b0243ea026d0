// eslint-disable-next-line no-restricted-imports -- a main for the stand-in Electron: this electron is the stand-in
import { app, BrowserWindow } from 'electron'

/**
 * The stand-in Electron's floor for main's memory (test/bench/library-main.ts): a main that only opens one
 * window on a blank page, run under the same stand-in as the built app, so what the stand-in itself holds
 * (its Chromium driver, the page runtime it builds) is measured apart from what the app's main holds.
 */
void app.whenReady().then(() => new BrowserWindow({ width: 1200, height: 780 }).loadURL('about:blank'))
app.on('window-all-closed', () => app.quit())
