import type { LastfmKeys } from '../core'

/**
 * The project's Last.fm API key and shared secret, set at build time: `MAIN_VITE_LASTFM_API_KEY` and
 * `MAIN_VITE_LASTFM_API_SECRET` in the environment (or a `.env` file) of `electron-vite build`. A build
 * without them has no Last.fm (Settings → Connections says "not available in this build").
 */
export function lastfmKeys(): LastfmKeys | undefined {
  const apiKey = import.meta.env.MAIN_VITE_LASTFM_API_KEY
  const secret = import.meta.env.MAIN_VITE_LASTFM_API_SECRET
  return apiKey && secret ? { apiKey, secret } : undefined
}
