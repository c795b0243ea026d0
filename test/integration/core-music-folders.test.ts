import { mkdirSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { synthesizeWav } from '@server/audio/synth'
import type { MusicFoldersState } from '@shared/ipc/music-folders'
import { builtinCore } from '../support/builtin-core'
import { invokeOk } from '../support/test-core'
import { makeTrack } from '../support/library-files'

/**
 * Settings → Music on this computer through main's IPC: the folder picker (injected, as the glue's
 * dialog), the folders handed to the built-in data source (the real server, in-process, started as the
 * utility process would be: the import in the background), its reports back, cancel and remove.
 */
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step()
})

async function setup(pick: () => string | undefined) {
  const root = await mkdtemp(join(tmpdir(), 'cadence-music-folders-'))
  cleanups.push(() => rm(root, { recursive: true, force: true }))
  const states: MusicFoldersState[] = []
  const built = builtinCore(root, pick, () => ({ libraryInBackground: true, demo: 5 }))
  const off = built.core.events.subscribe((event, payload) => {
    if (event === 'library:changed') states.push(payload as MusicFoldersState)
  })
  cleanups.push(built.stop)
  cleanups.push(off)
  await built.core.builtin.start()
  return { root, core: built.core, launches: built.launches, states }
}

describe('music folders from the app', () => {
  it('adds a picked folder, imports it in the data source, shows songs and unreadable files; removes it', async () => {
    const picker: { folder?: string } = {}
    const t = await setup(() => picker.folder)
    const music = join(t.root, 'music')
    mkdirSync(music)
    makeTrack(join(music, 'one.mp3'), { title: 'Folder One', artist: 'Mine' }, 1)
    makeTrack(join(music, 'two.flac'), { title: 'Folder Two', artist: 'Mine' }, 2)
    writeFileSync(join(music, 'broken.mp3'), Buffer.from('not audio '.repeat(100)))

    expect(await invokeOk<MusicFoldersState>(t.core, 'library:folders')).toEqual({
      folders: [],
      importing: null,
      message: null,
    })
    // The picker closed without a choice: nothing changes, no restart.
    await invokeOk(t.core, 'library:add-folder')
    expect(t.launches).toHaveLength(1)

    picker.folder = music
    await invokeOk(t.core, 'library:add-folder')
    expect(t.launches.map((l) => l.library ?? [])).toEqual([[], [music]])
    await vi.waitFor(
      async () => {
        const state = await invokeOk<MusicFoldersState>(t.core, 'library:folders')
        expect(state.importing).toBeNull()
        expect(state.folders).toEqual([
          expect.objectContaining({
            path: music,
            songs: 2,
            missing: false,
            unreadableCount: 1,
            unreadable: [{ path: join(music, 'broken.mp3'), error: expect.stringMatching(/.{6}/) }],
          }),
        ])
        expect(state.folders[0].scannedAt).toBeGreaterThan(0)
      },
      { timeout: 30_000, interval: 100 },
    )
    // The same folder again: nothing to do.
    await invokeOk(t.core, 'library:add-folder')
    expect(t.launches).toHaveLength(2)

    await invokeOk(t.core, 'library:remove-folder', { path: music })
    expect(t.launches.map((l) => l.library ?? [])).toEqual([[], [music], []])
    expect((await invokeOk<MusicFoldersState>(t.core, 'library:folders')).folders).toEqual([])
  }, 90_000)

  it('reports progress while a large import runs after start-up, and cancels it', async () => {
    const picker: { folder?: string } = {}
    const t = await setup(() => picker.folder)
    const music = join(t.root, 'many')
    mkdirSync(music)
    const wav = synthesizeWav({ seed: 1, tempo: 100, durationMs: 500 }, 8000, 1)
    for (let i = 0; i < 1500; i++) writeFileSync(join(music, `${String(i).padStart(4, '0')}.wav`), wav)

    picker.folder = music
    await invokeOk(t.core, 'library:add-folder')
    // The data source answered (start-up did not wait for the import), and the import is still going.
    expect(t.core.sources.get('builtin')?.state).toBe('ready')
    expect((await invokeOk<MusicFoldersState>(t.core, 'library:folders')).importing).not.toBeNull()
    await invokeOk(t.core, 'library:cancel-import')
    await vi.waitFor(
      async () => {
        const state = await invokeOk<MusicFoldersState>(t.core, 'library:folders')
        expect(state.importing).toBeNull()
        expect(state.message).toMatch(/cancelled/)
        expect(state.folders[0].songs).toBeLessThan(1500)
      },
      { timeout: 30_000, interval: 100 },
    )
    expect(t.states.some((s) => s.importing !== null)).toBe(true)
  }, 90_000)
})
