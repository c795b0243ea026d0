import { describe, expect, it } from 'vitest'
import { buildTrayMenu } from '@main/core/tray/menu'
import type { TrayMenuItem } from '@main/core/tray/menu'
import { playerStateSchema } from '@shared/ipc/schemas'

const song = { id: 1, name: 'Blue Hour', artists: 'Mira Vale', liked: false }
const sleepItem = (items: TrayMenuItem[]) => items.find((i) => i.type === 'normal' && i.id === 'sleep-timer')

describe('tray menu: sleep timer', () => {
  it('shows the minutes left, and clicking the line cancels the timer', () => {
    const items = buildTrayMenu(
      { playing: true, song, sleep: { kind: 'minutes', leftMinutes: 23 } },
      { windowVisible: true },
    )
    expect(sleepItem(items)).toMatchObject({
      label: 'Sleep timer: 23 min left — cancel',
      enabled: true,
      action: { type: 'command', command: 'cancel-sleep' },
    })
  })

  it('says which end it waits for, and the last minute, in the chosen language', () => {
    const at = (
      kind: 'song' | 'album' | 'queue' | 'minutes',
      leftMinutes: number | null,
      language?: 'zh-CN',
    ) =>
      sleepItem(
        buildTrayMenu(
          { playing: true, song, sleep: { kind, leftMinutes } },
          { windowVisible: true, language },
        ),
      )
    expect(at('song', null)).toMatchObject({ label: 'Sleep timer: after this song — cancel' })
    expect(at('album', null)).toMatchObject({ label: 'Sleep timer: after this album — cancel' })
    expect(at('queue', 4)).toMatchObject({ label: 'Sleep timer: 4 min left — cancel' })
    expect(at('minutes', 1)).toMatchObject({ label: 'Sleep timer: less than a minute — cancel' })
    expect(at('minutes', 23, 'zh-CN')).toMatchObject({ label: '睡眠定时：还剩 23 分钟 — 取消' })
  })

  it('has no sleep line without a timer', () => {
    expect(sleepItem(buildTrayMenu({ playing: true, song }, { windowVisible: true }))).toBeUndefined()
  })

  it('the state report carrying the timer passes the contract; a bad one is refused', () => {
    const state = { playing: true, song, sleep: { kind: 'album', leftMinutes: null } }
    expect(playerStateSchema.safeParse(state).success).toBe(true)
    expect(
      playerStateSchema.safeParse({ ...state, sleep: { kind: 'forever', leftMinutes: 1 } }).success,
    ).toBe(false)
  })
})

describe('tray menu: private session', () => {
  it('offers to start a private session, and to end one that is on', () => {
    const item = (privateSession: boolean) =>
      buildTrayMenu({ playing: true, song }, { windowVisible: true, privateSession }).find(
        (i) => i.type === 'normal' && i.id === 'private-session',
      )
    expect(item(false)).toMatchObject({
      label: 'Start private session',
      action: { type: 'toggle-private-session' },
    })
    expect(item(true)).toMatchObject({
      label: 'End private session',
      action: { type: 'toggle-private-session' },
    })
  })
})
