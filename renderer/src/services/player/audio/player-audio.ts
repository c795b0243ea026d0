/**
 * The members of the audio element the engine uses, so tests can hand it a fake (happy-dom's audio
 * element does not play).
 */
export type PlayerAudio = Pick<
  HTMLAudioElement,
  | 'src'
  | 'currentTime'
  | 'duration'
  | 'paused'
  | 'volume'
  | 'muted'
  | 'readyState'
  | 'playbackRate'
  | 'defaultPlaybackRate'
  | 'error'
  | 'play'
  | 'pause'
  | 'load'
  | 'removeAttribute'
  | 'addEventListener'
  | 'removeEventListener'
>
