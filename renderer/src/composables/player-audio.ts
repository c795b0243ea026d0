/**
 * The one audio element the player drives. The store only uses the members in `PlayerAudio`, so tests
 * replace this module with a fake (happy-dom's audio element does not play).
 *
 * The element is mounted hidden in the document with `data-testid="player-audio"`, so end-to-end tests
 * can read its clock (`currentTime`) the way a person hears it.
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
  | 'error'
  | 'play'
  | 'pause'
  | 'load'
  | 'removeAttribute'
  | 'addEventListener'
  | 'removeEventListener'
>

export function createPlayerAudio(): PlayerAudio {
  const audio = document.createElement('audio')
  audio.preload = 'auto'
  audio.dataset.testid = 'player-audio'
  audio.hidden = true
  document.body.appendChild(audio)
  return audio
}
