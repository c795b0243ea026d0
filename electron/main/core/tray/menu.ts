import type { PlayerCommandName, PlayerState } from '@shared/ipc/contract'

/**
 * The tray's tooltip and menu, as plain data: the glue turns it into an Electron Menu and routes
 * `action` back (a player command to the renderer, show/hide, quit).
 */

export type TrayAction =
  | { type: 'command'; command: PlayerCommandName }
  | { type: 'toggle-window' }
  | { type: 'toggle-desktop-lyrics' }
  | { type: 'quit' }

export type TrayMenuItem =
  { type: 'separator' } | { type: 'normal'; id: string; label: string; enabled: boolean; action?: TrayAction }

const MAX_LABEL = 60

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

export function buildTrayMenu(
  state: PlayerState | null,
  options: { windowVisible: boolean; desktopLyrics?: boolean },
): TrayMenuItem[] {
  const song = state?.song ?? null
  const hasSong = song !== null
  return [
    {
      type: 'normal',
      id: 'now-playing',
      label: song ? clip(song.artists ? `${song.name} — ${song.artists}` : song.name) : 'Nothing playing',
      enabled: false,
    },
    { type: 'separator' },
    {
      type: 'normal',
      id: 'play-pause',
      label: state?.playing ? 'Pause' : 'Play',
      enabled: hasSong,
      action: { type: 'command', command: state?.playing ? 'pause' : 'play' },
    },
    {
      type: 'normal',
      id: 'previous',
      label: 'Previous',
      enabled: hasSong,
      action: { type: 'command', command: 'previous' },
    },
    {
      type: 'normal',
      id: 'next',
      label: 'Next',
      enabled: hasSong,
      action: { type: 'command', command: 'next' },
    },
    {
      type: 'normal',
      id: 'like',
      label: song?.liked ? 'Unlike' : 'Like',
      enabled: hasSong,
      action: { type: 'command', command: song?.liked ? 'unlike' : 'like' },
    },
    { type: 'separator' },
    {
      type: 'normal',
      id: 'desktop-lyrics',
      label: options.desktopLyrics ? 'Hide desktop lyrics' : 'Show desktop lyrics',
      enabled: true,
      action: { type: 'toggle-desktop-lyrics' },
    },
    {
      type: 'normal',
      id: 'toggle-window',
      label: options.windowVisible ? 'Hide Cadence' : 'Show Cadence',
      enabled: true,
      action: { type: 'toggle-window' },
    },
    { type: 'normal', id: 'quit', label: 'Quit', enabled: true, action: { type: 'quit' } },
  ]
}
