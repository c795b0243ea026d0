import { describe, expect, it } from 'vitest'
import { buildTrayMenu, trayTooltip } from '@main/core/tray/menu'
import type { TrayMenuItem } from '@main/core/tray/menu'

const song = { id: 1, name: 'Blue Hour', artists: 'Mira Vale', liked: false }
const labels = (items: TrayMenuItem[]) => items.map((i) => (i.type === 'separator' ? '---' : i.label))

describe('tray menu', () => {
  it('shows the current song and offers pause, previous, next, like, desktop lyrics, hide and quit', () => {
    const items = buildTrayMenu({ playing: true, song }, { windowVisible: true })
    expect(labels(items)).toEqual([
      'Blue Hour — Mira Vale',
      '---',
      'Pause',
      'Previous',
      'Next',
      'Like',
      '---',
      'Start private session',
      'Show desktop lyrics',
      'Hide Cadence',
      'Quit',
    ])
    const action = (id: string) => items.find((i) => i.type === 'normal' && i.id === id)
    expect(action('play-pause')).toMatchObject({
      enabled: true,
      action: { type: 'command', command: 'pause' },
    })
    expect(action('like')).toMatchObject({ action: { type: 'command', command: 'like' } })
    expect(action('quit')).toMatchObject({ action: { type: 'quit' } })
  })

  it('offers play and unlike for a paused, liked song, and show when hidden', () => {
    const items = buildTrayMenu({ playing: false, song: { ...song, liked: true } }, { windowVisible: false })
    expect(labels(items)).toContain('Play')
    expect(labels(items)).toContain('Unlike')
    expect(labels(items)).toContain('Show Cadence')
  })

  it('disables the player items when nothing is playing', () => {
    const items = buildTrayMenu(null, { windowVisible: true })
    expect(labels(items)[0]).toBe('Nothing playing')
    for (const item of items) {
      if (item.type === 'normal' && item.action?.type === 'command') expect(item.enabled).toBe(false)
    }
  })

  it('speaks the language chosen in Settings', () => {
    const items = buildTrayMenu({ playing: true, song }, { windowVisible: true, language: 'zh-CN' })
    expect(labels(items)).toEqual([
      'Blue Hour — Mira Vale',
      '---',
      '暂停',
      '上一首',
      '下一首',
      '喜欢',
      '---',
      '开启私人模式',
      '显示桌面歌词',
      '隐藏 Cadence',
      '退出',
    ])
    expect(labels(buildTrayMenu(null, { windowVisible: false, language: 'zh-CN' }))[0]).toBe('未在播放')
  })

  it('offers "Restart to update" first only while a downloaded update waits', () => {
    expect(
      buildTrayMenu(null, { windowVisible: true }).some(
        (item) => 'id' in item && item.id === 'restart-to-update',
      ),
    ).toBe(false)
    const [first, second] = buildTrayMenu(null, { windowVisible: true, updateReady: true })
    expect(first).toMatchObject({
      id: 'restart-to-update',
      label: 'Restart to update',
      enabled: true,
      action: { type: 'install-update' },
    })
    expect(second).toEqual({ type: 'separator' })
  })

  it('writes a short tooltip', () => {
    expect(trayTooltip(null)).toBe('Cadence')
    expect(trayTooltip({ playing: true, song })).toBe('▶ Blue Hour — Mira Vale')
    expect(
      trayTooltip({ playing: false, song: { ...song, name: 'x'.repeat(300) } }).length,
    ).toBeLessThanOrEqual(120)
  })
})
