import type { PlayerCommandName, PlayerState } from '@shared/ipc/contract'
import type { Language } from '@shared/settings'

/**
 * The tray's tooltip and menu, as plain data: the glue turns it into an Electron Menu and routes
 * `action` back (a player command to the renderer, show/hide, quit).
 */

export type TrayAction =
  | { type: 'command'; command: PlayerCommandName }
  | { type: 'toggle-window' }
  | { type: 'toggle-desktop-lyrics' }
  | { type: 'install-update' }
  | { type: 'toggle-private-session' }
  | { type: 'quit' }

export type TrayMenuItem =
  { type: 'separator' } | { type: 'normal'; id: string; label: string; enabled: boolean; action?: TrayAction }

const MAX_LABEL = 60

/** The tray speaks the language the user chose in Settings, like the window does. */
const LABELS = {
  en: {
    nothingPlaying: 'Nothing playing',
    play: 'Play',
    pause: 'Pause',
    previous: 'Previous',
    next: 'Next',
    like: 'Like',
    unlike: 'Unlike',
    showDesktopLyrics: 'Show desktop lyrics',
    hideDesktopLyrics: 'Hide desktop lyrics',
    showWindow: 'Show Cadence',
    hideWindow: 'Hide Cadence',
    restartToUpdate: 'Restart to update',
    quit: 'Quit',
    privateOn: 'End private session',
    privateOff: 'Start private session',
    sleepMinutes: 'Sleep timer: {n} min left — cancel',
    sleepSoon: 'Sleep timer: less than a minute — cancel',
    sleepSong: 'Sleep timer: after this song — cancel',
    sleepAlbum: 'Sleep timer: after this album — cancel',
    sleepQueue: 'Sleep timer: after the queue — cancel',
  },
  'zh-CN': {
    nothingPlaying: '未在播放',
    play: '播放',
    pause: '暂停',
    previous: '上一首',
    next: '下一首',
    like: '喜欢',
    unlike: '取消喜欢',
    showDesktopLyrics: '显示桌面歌词',
    hideDesktopLyrics: '隐藏桌面歌词',
    showWindow: '显示 Cadence',
    hideWindow: '隐藏 Cadence',
    restartToUpdate: '重启以更新',
    quit: '退出',
    privateOn: '结束私人模式',
    privateOff: '开启私人模式',
    sleepMinutes: '睡眠定时：还剩 {n} 分钟 — 取消',
    sleepSoon: '睡眠定时：不到一分钟 — 取消',
    sleepSong: '睡眠定时：这首歌播完后 — 取消',
    sleepAlbum: '睡眠定时：这张专辑播完后 — 取消',
    sleepQueue: '睡眠定时：播放队列播完后 — 取消',
  },
} satisfies Record<Language, Record<string, string>>

/** The tray's words in `language` (English when unknown); the dock menu and the taskbar use them too. */
export const trayLabels = (language: Language | undefined) => LABELS[language ?? 'en'] ?? LABELS.en

/** The disabled first line of a player menu: the song playing, or that nothing is. */
export function nowPlayingItem(state: PlayerState | null, l: (typeof LABELS)['en']): TrayMenuItem {
  const song = state?.song
  return {
    type: 'normal',
    id: 'now-playing',
    label: song ? clip(song.artists ? `${song.name} — ${song.artists}` : song.name) : l.nothingPlaying,
    enabled: false,
  }
}

function clip(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  return clean.length > MAX_LABEL ? `${clean.slice(0, MAX_LABEL - 1)}…` : clean
}

export function trayTooltip(state: PlayerState | null): string {
  const song = state?.song
  if (!song) return 'Cadence'
  const title = song.artists ? `${song.name} — ${song.artists}` : song.name
  // Some platforms cap tooltips (Windows: 127 characters).
  return clip(`${state.playing ? '▶' : '⏸'} ${title}`).slice(0, 120)
}

/** The sleep timer's line: what it waits for or the minutes left; clicking it cancels the timer. */
function sleepItems(state: PlayerState | null, l: (typeof LABELS)['en']): TrayMenuItem[] {
  const sleep = state?.sleep
  if (!sleep) return []
  const left = sleep.leftMinutes
  const ends = { song: l.sleepSong, album: l.sleepAlbum, queue: l.sleepQueue }
  const label =
    left !== null && left > 1
      ? l.sleepMinutes.replace('{n}', String(left))
      : sleep.kind === 'minutes'
        ? l.sleepSoon
        : ends[sleep.kind]
  return [
    {
      type: 'normal',
      id: 'sleep-timer',
      label,
      enabled: true,
      action: { type: 'command', command: 'cancel-sleep' },
    },
  ]
}

export function buildTrayMenu(
  state: PlayerState | null,
  options: {
    windowVisible: boolean
    desktopLyrics?: boolean
    language?: Language
    /** A downloaded update waits for a restart: the menu offers it first. */
    updateReady?: boolean
    /** A private session is on: nothing is recorded in history. */
    privateSession?: boolean
  },
): TrayMenuItem[] {
  const l = trayLabels(options.language)
  const song = state?.song ?? null
  const hasSong = song !== null
  const update: TrayMenuItem[] = options.updateReady
    ? [
        {
          type: 'normal',
          id: 'restart-to-update',
          label: l.restartToUpdate,
          enabled: true,
          action: { type: 'install-update' },
        },
        { type: 'separator' },
      ]
    : []
  return [
    ...update,
    nowPlayingItem(state, l),
    { type: 'separator' },
    {
      type: 'normal',
      id: 'play-pause',
      label: state?.playing ? l.pause : l.play,
      enabled: hasSong,
      action: { type: 'command', command: state?.playing ? 'pause' : 'play' },
    },
    {
      type: 'normal',
      id: 'previous',
      label: l.previous,
      enabled: hasSong,
      action: { type: 'command', command: 'previous' },
    },
    {
      type: 'normal',
      id: 'next',
      label: l.next,
      enabled: hasSong,
      action: { type: 'command', command: 'next' },
    },
    {
      type: 'normal',
      id: 'like',
      label: song?.liked ? l.unlike : l.like,
      enabled: hasSong,
      action: { type: 'command', command: song?.liked ? 'unlike' : 'like' },
    },
    ...sleepItems(state, l),
    { type: 'separator' },
    {
      type: 'normal',
      id: 'private-session',
      label: options.privateSession ? l.privateOn : l.privateOff,
      enabled: true,
      action: { type: 'toggle-private-session' },
    },
    {
      type: 'normal',
      id: 'desktop-lyrics',
      label: options.desktopLyrics ? l.hideDesktopLyrics : l.showDesktopLyrics,
      enabled: true,
      action: { type: 'toggle-desktop-lyrics' },
    },
    {
      type: 'normal',
      id: 'toggle-window',
      label: options.windowVisible ? l.hideWindow : l.showWindow,
      enabled: true,
      action: { type: 'toggle-window' },
    },
    { type: 'normal', id: 'quit', label: l.quit, enabled: true, action: { type: 'quit' } },
  ]
}
