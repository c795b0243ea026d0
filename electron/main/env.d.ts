/** What electron-vite puts into main at build time (`MAIN_VITE_*` from the environment or `.env`). */
interface ImportMetaEnv {
  readonly MAIN_VITE_LASTFM_API_KEY?: string
  readonly MAIN_VITE_LASTFM_API_SECRET?: string
}
interface ImportMeta {
  readonly env: ImportMetaEnv
}
