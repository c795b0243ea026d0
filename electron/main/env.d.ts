/** What electron-vite puts into main at build time (`MAIN_VITE_*` from the environment or `.env`). */
interface ImportMetaEnv {
  readonly MAIN_VITE_LASTFM_API_KEY?: string
  readonly MAIN_VITE_LASTFM_API_SECRET?: string
  /** The project's Discord application id (docs/integrations.md). */
  readonly MAIN_VITE_DISCORD_APP_ID?: string
}
interface ImportMeta {
  readonly env: ImportMetaEnv
}
