/**
 * On every answer. The renderer's page (file:// or the dev server) is another origin than the scheme, and
 * Web Audio hears cross-origin media only with CORS approval. Nothing is cached by Chromium (the bytes
 * come from main, which decides about caching).
 */
export const COMMON_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Length, Content-Range, Accept-Ranges',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
}

/** A refusal with a short text saying why. */
export function failure(status: number, message: string, extra: Record<string, string> = {}): Response {
  return new Response(message, {
    status,
    headers: { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra },
  })
}
