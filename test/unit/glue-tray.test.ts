import { beforeEach, describe, expect, it, vi } from 'vitest'

type Item = { id?: string; label?: string; type?: string; enabled?: boolean; click?: () => void }
const trays: FakeTray[] = []
class FakeTray {
  tooltip = ''
  menu: Item[] = []
  handlers = new Map<string, () => void>()
  destroyed = false
  constructor(readonly icon: unknown) {
    trays.push(this)
  }
  setToolTip(text: string) {
    this.tooltip = text
  }
  setContextMenu(menu: { items: Item[] }) {
    this.menu = menu.items
  }
  on(event: string, handler: () => void) {
    this.handlers.set(event, handler)
  }
  destroy() {
    this.destroyed = true
  }
}
vi.mock('electron', () => ({
  Tray: FakeTray,
  Menu: { buildFromTemplate: (items: Item[]) => ({ items }) },
  nativeImage: { createFromPath: () => ({ resize: () => 'icon' }) },
}))

const { createAppTray } = await import('@main/glue/tray')

describe('createAppTray', () => {
  let lyricsShown = false
  beforeEach(() => {
    trays.length = 0
    lyricsShown = false
  })

  function open(visible = true) {
    const onAction = vi.fn()
    const onClick = vi.fn()
    const tray = createAppTray({
      iconPath: '/icon.png',
      onAction,
      onClick,
      isWindowVisible: () => visible,
      isDesktopLyricsShown: () => lyricsShown,
    })
    return { tray, fake: trays[0], onAction, onClick }
  }

  it('shows the current song in the tooltip and menu', () => {
    const { tray, fake } = open()
    expect(fake.tooltip).toBe('Cadence')
    tray.update({ playing: true, song: { id: 1, name: 'Song', artists: 'Artist', liked: true } })
    expect(fake.tooltip).toBe('▶ Song — Artist')
    expect(fake.menu.map((i) => i.label ?? i.type)).toEqual([
      'Song — Artist',
      'separator',
      'Pause',
      'Previous',
      'Next',
      'Unlike',
      'separator',
      'Start private session',
      'Show desktop lyrics',
      'Hide Cadence',
      'Quit',
    ])
    lyricsShown = true
    tray.refresh()
    expect(fake.menu.map((i) => i.label)).toContain('Hide desktop lyrics')
  })

  it('routes menu clicks to actions and a click on the icon to showing the window', () => {
    const { tray, fake, onAction, onClick } = open(false)
    tray.update({ playing: false, song: { id: 1, name: 'Song', artists: '', liked: false } })
    fake.menu.find((i) => i.id === 'play-pause')!.click!()
    fake.menu.find((i) => i.id === 'next')!.click!()
    fake.menu.find((i) => i.id === 'desktop-lyrics')!.click!()
    fake.menu.find((i) => i.id === 'toggle-window')!.click!()
    fake.menu.find((i) => i.id === 'quit')!.click!()
    expect(onAction.mock.calls.map(([a]) => a)).toEqual([
      { type: 'command', command: 'play' },
      { type: 'command', command: 'next' },
      { type: 'toggle-desktop-lyrics' },
      { type: 'toggle-window' },
      { type: 'quit' },
    ])
    fake.handlers.get('click')!()
    expect(onClick).toHaveBeenCalled()
    tray.destroy()
    expect(fake.destroyed).toBe(true)
  })
})
