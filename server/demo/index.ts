/**
 * The demo catalogue: generated songs, albums, artists, playlists and lyrics. A leaf: only the server's
 * start-up (server/index.ts) imports it, through this file; nothing in the demo is needed to serve a
 * library without it (lint enforces this in eslint.config.js).
 */
export { generateDemo, type DemoSummary } from './generate'
export { removeDemo } from './remove'
