/**
 * Which URLs are the app's own pages: with a dev server, the same origin (compared as parsed URLs, so
 * `http://localhost:5173.evil.example` is not `http://localhost:5173`); with files, `file:` URLs inside
 * the renderer folder after the URL parser has resolved `..` (so `…/renderer/../secret.html` is out).
 */
export function isAppUrlFor(base: string): (url: string) => boolean {
  const root = new URL(base)
  const folder = root.pathname.endsWith('/') ? root.pathname : `${root.pathname}/`
  return (url) => {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      return false
    }
    if (root.protocol === 'file:') {
      return target.protocol === 'file:' && target.host === root.host && target.pathname.startsWith(folder)
    }
    return target.origin === root.origin
  }
}
