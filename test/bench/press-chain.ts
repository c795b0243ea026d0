import { setTimeout as sleep } from 'node:timers/promises'
import { loadavg } from 'node:os'
import { startApp } from '../e2e/harness'
import type { App } from '../e2e/harness'
import { audioState, findSongs, playable } from '../e2e/playback-support'

/**
 * The chain from a row's press to its first chunk made, link by link, on the end-to-end harness (no
 * sound recorded: `bench:audio` measures what is heard). Each song is pressed as the audio bench's
 * double-click does (pointer moved onto the row, a press, 150 ms, the second press), from silence, and
 * the page's clock marks (epoch ms) each link: the press; main's `/song/detail` asked and answered (the
 * test process's clock); the head's fetch asked and answered; the worker asked to open the song and its
 * answer; the first chunk asked and answered; the `AudioBuffer` made; the `dblclick`; the suspended
 * context's resume asked and done; the first chunk scheduled.
 *
 * With `rest` the pointer rests on the row 400 ms before its first press (as a person's does, which
 * prepares the row: `song-list-press.ts`); without it the press follows the pointer's move at once, as
 * in the audio bench. Rows 1, 3, 5, … of the first playlist (not the one that follows the song before).
 *
 * With `store` no row is pressed: each song is played through the player store (`playSongs`, as the
 * audio bench's store click, a play from the tray, a media key or "Play all" with no press before it),
 * and `down` marks that call.
 *
 *   npx tsx test/bench/press-chain.ts [songs=6] [rest] [store]
 */

const SONGS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 6)
/** `rest`: the pointer rests on the row 400 ms before the first press (a person's double-click). */
const REST = process.argv.includes('rest')
/** `store`: played through the player store, no press (`down` marks the call). */
const STORE = process.argv.includes('store')

interface Marks {
  down?: number
  detailAsked?: number
  detailAnswered?: number
  headAsked?: number
  headAnswered?: number
  openAsked?: number
  opened?: number
  readAsked?: number
  chunk?: number
  buffer?: number
  secondDown?: number
  dblclick?: number
  resumeAsked?: number
  resumed?: number
  scheduled?: number
}

/** The page's marks (epoch ms), each the first of its kind since `__marks` was emptied. */
const MARKS_SCRIPT = `(() => {
  const now = () => performance.timeOrigin + performance.now()
  window.__marks = {}
  const mark = (name) => (window.__marks[name] ??= now())
  document.addEventListener('pointerdown', () => mark(window.__marks.down ? 'secondDown' : 'down'), true)
  document.addEventListener('dblclick', () => mark('dblclick'), true)
  const realFetch = window.fetch
  window.fetch = async function (input, init) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const head = url.startsWith('cadence-media:') && new Headers(init?.headers).get('range') === 'bytes=0-65535'
    if (head) mark('headAsked')
    const answer = await realFetch.call(this, input, init)
    if (head && (await answer.clone().arrayBuffer()).byteLength) mark('headAnswered')
    return answer
  }
  const post = Worker.prototype.postMessage
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message?.type?.startsWith('open-')) mark('openAsked')
    if (message?.type === 'read') mark('readAsked')
    return post.call(this, message, ...rest)
  }
  const RealWorker = window.Worker
  window.Worker = class extends RealWorker {
    constructor(url, options) {
      super(url, options)
      mark('workerMade')
      this.addEventListener('message', (event) => {
        if (event.data?.type === 'opened') mark('opened')
        if (event.data?.type === 'chunk') mark('chunk')
      })
    }
  }
  const resume = AudioContext.prototype.resume
  AudioContext.prototype.resume = function () {
    const suspended = this.state !== 'running'
    if (suspended) mark('resumeAsked')
    return resume.call(this).then((done) => {
      if (suspended) mark('resumed')
      return done
    })
  }
  const createBuffer = BaseAudioContext.prototype.createBuffer
  BaseAudioContext.prototype.createBuffer = function (...args) {
    mark('buffer')
    return createBuffer.apply(this, args)
  }
  const start = AudioBufferSourceNode.prototype.start
  AudioBufferSourceNode.prototype.start = function (...args) {
    mark('scheduled')
    return start.apply(this, args)
  }
})()`

const median = (values: number[]) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Waits until the song has played half a second. */
async function expectClock(app: App) {
  for (let tries = 0; tries < 200; tries++) {
    const state = await audioState(app.page)
    if (!state.paused && state.time > 0.5) return
    await sleep(100)
  }
}

async function main() {
  const load = loadavg()
  let detail: { asked?: number; answered?: number } = {}
  const app = await startApp({
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      const resolving = url.pathname.endsWith('/song/detail') && url.searchParams.has('br')
      if (resolving) detail.asked ??= Date.now()
      const answer = await globalThis.fetch(input, init)
      if (resolving) detail.answered ??= Date.now()
      return answer
    },
  })
  try {
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    // A string, so the bundler's helpers (`__name`) do not reach the page.
    await app.page.evaluate(MARKS_SCRIPT)
    await app.page.getByTestId('nav-home').click()
    await app.page.getByTestId('home-playlists').getByTestId('playlist-card').first().click()
    await app.page
      .getByTestId('song-row')
      .nth(2 * SONGS)
      .waitFor({ timeout: 30_000 })
    const rows: Array<Marks & { first: boolean }> = []
    const songs = STORE ? await findSongs(app, SONGS, playable) : []
    for (let i = 1; i <= SONGS; i++) {
      detail = {}
      await app.page.evaluate('window.__marks = {}')
      if (STORE) {
        const song = { ...songs[i - 1]!, meta: undefined }
        await app.page.evaluate(`(() => {
          window.__marks.down = performance.timeOrigin + performance.now()
          const player = document.querySelector('#app').__vue_app__.config.globalProperties.$pinia._s.get('player')
          return player.playSongs([${JSON.stringify(song)}], 0)
        })()`)
      } else {
        const name = app.page
          .getByTestId('song-row')
          .nth(2 * i - 1)
          .getByTestId('song-name')
        await name.scrollIntoViewIfNeeded()
        const box = (await name.boundingBox())!
        await app.page.mouse.move(box.x + Math.min(20, box.width / 2), box.y + box.height / 2)
        if (REST) await sleep(400)
        await app.page.mouse.down()
        await app.page.mouse.up()
        await sleep(150)
        await app.page.mouse.down({ clickCount: 2 })
        await app.page.mouse.up({ clickCount: 2 })
      }
      let tries = 0
      while (!(await app.page.evaluate('!!window.__marks.scheduled')) && tries++ < 150) await sleep(100)
      if (tries >= 150) {
        console.log(`row ${i}: not played, left out`)
        continue
      }
      await expectClock(app)
      const marks = (await app.page.evaluate('window.__marks')) as Marks
      rows.push({ ...marks, detailAsked: detail.asked, detailAnswered: detail.answered, first: i === 1 })
      await app.page.getByTestId('player-toggle').click()
      while (!(await audioState(app.page)).paused) await sleep(100)
      await sleep(600)
    }
    const links: Array<[string, (m: Marks) => number]> = [
      ['press → resolve asked (main)', (m) => m.detailAsked! - m.down!],
      ['resolve (data source /song/detail)', (m) => m.detailAnswered! - m.detailAsked!],
      ['resolve answered → head asked', (m) => m.headAsked! - m.detailAnswered!],
      ['press → head asked (whole resolve)', (m) => m.headAsked! - m.down!],
      ['head fetch', (m) => m.headAnswered! - m.headAsked!],
      ['head answered → open asked', (m) => m.openAsked! - m.headAnswered!],
      ['worker open', (m) => m.opened! - m.openAsked!],
      ['opened → first chunk asked', (m) => m.readAsked! - m.opened!],
      ['first chunk decode (worker)', (m) => m.chunk! - m.readAsked!],
      ['chunk → AudioBuffer made', (m) => m.buffer! - m.chunk!],
      ['press → AudioBuffer made (total)', (m) => m.buffer! - m.down!],
      ['second press → dblclick', (m) => m.dblclick! - m.secondDown!],
      ['dblclick → context resume asked', (m) => m.resumeAsked! - m.dblclick!],
      ['context resume (it was suspended)', (m) => m.resumed! - m.resumeAsked!],
      ['resumed → first chunk scheduled', (m) => m.scheduled! - m.resumed!],
      ['press (store: the call) → resume asked', (m) => m.resumeAsked! - m.down!],
      ['press (store: the call) → scheduled', (m) => m.scheduled! - m.down!],
      ['dblclick → first chunk scheduled', (m) => m.scheduled! - m.dblclick!],
      ['second press → first chunk scheduled', (m) => m.scheduled! - m.secondDown!],
    ]
    console.log(
      STORE
        ? 'played through the store, no press'
        : REST
          ? 'the pointer rested 400 ms on each row before its press'
          : 'pressed as the pointer came',
    )
    console.log(
      `load average at start: ${load.map((l) => l.toFixed(2)).join(' ')}; now ${loadavg()[0]!.toFixed(2)}`,
    )
    for (const [name, of] of links) {
      const all = rows.map(of)
      const later = rows.filter((r) => !r.first).map(of)
      console.log(
        `${name.padEnd(40)} first ${all[0]!.toFixed(1).padStart(7)}  later median ${median(later).toFixed(1).padStart(7)}  (${later.map((v) => v.toFixed(0)).join(', ')})`,
      )
    }
  } finally {
    await app.close()
  }
}

await main()
