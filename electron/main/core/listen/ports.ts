/** What the listening features need from the desktop; the glue (`glue/listen/`) provides it. */

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

/** The always-on-top, transparent desktop lyrics window. */
export interface DesktopLyricsWindowPort {
  /** Opens it at `bounds` (or shows it if open). */
  open(bounds: Rect): void
  close(): void
  /** Locked: clicks go through to what is below, and it cannot be dragged. */
  setLocked(locked: boolean): void
}

/** The main window, turned into the small always-on-top mini player and back. */
export interface MiniPlayerPort {
  /** The work area of the display the main window is on. */
  workArea(): Rect | undefined
  enter(bounds: Rect): void
  leave(): void
}

/** A notification through the OS. */
export interface NotifierPort {
  supported(): boolean
  show(notification: { title: string; body: string; icon?: Uint8Array }): void
  /** Whether one of the app's windows has focus (then a notification is noise). */
  appFocused(): boolean
}

export interface ListenPorts {
  desktopLyrics?: DesktopLyricsWindowPort
  miniPlayer?: MiniPlayerPort
  notifier?: NotifierPort
}
