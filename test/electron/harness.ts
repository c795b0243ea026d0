import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import type { Browser, Page } from 'playwright-core'
import type { StandInRecord } from './stand-in/electron'

/**
 * Starts the BUILT app (out/main/index.js) as Electron would, under Node 24 with the stand-in `electron`
 * (test/electron/stand-in/): a child process `node --import stand-in/register.ts out/main/index.js`.
 * The stand-in reports what the app did as records over the IPC channel (windows, tray menus, utility
 * processes, dialogs, console messages) and takes commands (click a tray item, quit, activate). The test
 * drives the windows through Chromium's DevTools endpoint, as a person would.
 */

const ROOT = resolve(import.meta.dirname, '../..')
export const MAIN_ENTRY = join(ROOT, 'out/main/index.js')
const REGISTER = join(ROOT, 'test/electron/stand-in/register.ts')

export interface LaunchOptions {
  /** Reuse a home (appData, userData) from an earlier launch; default: a fresh temp dir. */
  home?: string
  env?: Record<string, string>
  args?: string[]
  /**
   * Start a packaged app's executable (test/package: `dist/stand-in/linux-unpacked/cadence`, whose launcher
   * runs the stand-in on `resources/app.asar`) instead of the working tree's out/main/index.js.
   */
  executable?: string
  /** Run another main script under the stand-in instead of out/main/index.js (the bench's blank app). */
  entry?: string
}

export interface StandInApp {
  child: ChildProcess
  home: string
  /** `appData/<name>` (default `Cadence-dev`: a development build), where the app keeps cadence.json and the data source. */
  userData(name?: string): string
  records: StandInRecord[]
  /**
   * Resolves with the first record of `kind` (past or future) that `accept` takes; `index` is the
   * record's place in `records`, so a test can ask for one after a point.
   */
  waitFor(
    kind: string,
    accept?: (data: unknown, index: number) => boolean,
    timeoutMs?: number,
  ): Promise<StandInRecord>
  /** Everything recorded of one kind, so far. */
  all(kind: string): unknown[]
  send(command: { type: string; id?: string }): void
  /** The main window's page, once it has loaded the renderer. */
  mainPage(): Promise<Page>
  /** The QR login window's page, once it is open. */
  loginPage(timeoutMs?: number): Promise<Page>
  /** Resolves with the exit code when the process has ended. */
  exited: Promise<number | null>
  output(): string
  quit(): Promise<number | null>
  /** Ends the process if still running; removes the home unless `keepHome`. */
  close(options?: { keepHome?: boolean }): Promise<void>
}

export async function launchApp(options: LaunchOptions = {}): Promise<StandInApp> {
  const entry = options.executable ?? options.entry ?? MAIN_ENTRY
  if (!existsSync(entry)) throw new Error(`The app is not built (${entry}): run \`npm run build\` first.`)
  const home = options.home ?? (await mkdtemp(join(tmpdir(), 'cadence-standin-')))
  await mkdir(home, { recursive: true })
  const [command, args] = options.executable
    ? [options.executable, options.args ?? []]
    : [process.execPath, ['--import', REGISTER, entry, ...(options.args ?? [])]]
  const child = spawn(command, args, {
    cwd: options.executable ? dirname(options.executable) : ROOT,
    env: { ...process.env, CADENCE_STANDIN_HOME: home, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))

  const records: StandInRecord[] = []
  const waiters = new Set<() => void>()
  child.on('message', (message: StandInRecord & { type?: string }) => {
    if (message?.type !== 'record') return
    records.push({ kind: message.kind, data: message.data })
    for (const wake of [...waiters]) wake()
  })
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
  exited.then(() => {
    for (const wake of [...waiters]) wake()
  })
  let ended = false
  void exited.then(() => (ended = true))

  const waitFor: StandInApp['waitFor'] = (kind, accept = () => true, timeoutMs = 45_000) =>
    new Promise((done, fail) => {
      const check = () => {
        const found = records.find((item, index) => item.kind === kind && accept(item.data, index))
        if (found) return finish(() => done(found))
        if (ended) return finish(() => fail(new Error(`the app exited before recording ${kind}\n${output}`)))
      }
      const timer = setTimeout(
        () => finish(() => fail(new Error(`no ${kind} record within ${timeoutMs} ms\n${output}`))),
        timeoutMs,
      )
      const finish = (then: () => void) => {
        clearTimeout(timer)
        waiters.delete(check)
        then()
      }
      waiters.add(check)
      check()
    })

  let browser: Browser | undefined
  /** The page of an open window whose URL `accept` takes (windows are pages of the stand-in's Chromium). */
  const findPage = async (accept: (url: string) => boolean): Promise<Page> => {
    const { data } = await waitFor('devtools')
    browser ??= await chromium.connectOverCDP(`http://127.0.0.1:${(data as { port: number }).port}`)
    for (;;) {
      const page = browser
        .contexts()
        .flatMap((context) => context.pages())
        .find((candidate) => !candidate.isClosed() && accept(candidate.url()))
      if (page) return page
      await new Promise((wake) => setTimeout(wake, 50))
    }
  }
  const app: StandInApp = {
    child,
    home,
    userData: (name = 'Cadence-dev') => join(home, 'appData', name),
    records,
    waitFor,
    all: (kind) => records.filter((item) => item.kind === kind).map((item) => item.data),
    send: (command) => {
      if (child.connected) child.send(command)
    },
    output: () => output,
    exited,
    async mainPage() {
      await waitFor('window-loaded', (d) => !String((d as { url: string }).url).includes('#/login'))
      return findPage((url) => url.includes('index.html') && !url.includes('#/login'))
    },
    async loginPage(timeoutMs = 15_000) {
      await waitFor('window-loaded', (d) => String((d as { url: string }).url).includes('#/login'), timeoutMs)
      return findPage((url) => url.includes('#/login'))
    },
    async quit() {
      app.send({ type: 'quit' })
      return exited
    },
    async close(closeOptions = {}) {
      await browser?.close().catch(() => {})
      if (!ended) {
        app.send({ type: 'quit' })
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        await exited
        clearTimeout(timer)
      }
      if (!closeOptions.keepHome) await rm(home, { recursive: true, force: true })
    },
  }
  return app
}

/** Whether a process is still running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Whether electron-builder.yml's `files` list packages this path (relative to the project root). */
export function isPackagedFile(relative: string): boolean {
  const yml = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')
  const block = /^files:\n((?:\s+-.*\n|\s+#.*\n)+)/m.exec(yml)?.[1] ?? ''
  const patterns = [...block.matchAll(/^\s+-\s+'?([^'\n]+)'?$/gm)].map((match) => match[1].trim())
  const included = patterns
    .filter((pattern) => !pattern.startsWith('!'))
    .some((pattern) =>
      pattern.endsWith('/**') ? relative.startsWith(pattern.slice(0, -2)) : pattern === relative,
    )
  return included && existsSync(join(ROOT, relative))
}

export { ROOT }
