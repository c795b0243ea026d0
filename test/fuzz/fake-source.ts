import * as sample from './samples'

/** A fetch that answers like a healthy data source, without sockets: enough for a valid call to succeed. */
export function fakeSourceFetch(): typeof fetch {
  const answers: Partial<Record<string, () => unknown>> = {
    '/playlist/recommend': () => [sample.playlist(1), sample.playlist(2)],
    '/playlist/toplist': () => [sample.playlist(3)],
    '/playlist/list': () => [sample.playlist(4)],
    '/playlist/detail': () => sample.playlist(1, 3),
    '/song/recommend': () => [sample.song(1)],
    '/song/detail': () => sample.song(1),
    '/song/like': () => ({ id: 1, like: true, playlist: 9 }),
    '/artist/recommend': () => [sample.artist(1)],
    '/artist/detail': () => sample.playlist(1, 2),
    '/search': sample.searchResult,
    '/connect/status': () => sample.user(1),
    '/connect/qr/key': () => ({ unikey: 'k1' }),
    '/connect/qr/create': () => ({ qrurl: 'http://127.0.0.1/q/k1' }),
    '/connect/qr/check': () => ({ status: 0, cookie: '' }),
  }
  return (async (input: string | URL | Request) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    const answer = answers[url.pathname]
    const body = answer
      ? { code: 0, message: 'Success', data: answer(), timestamp: new Date().toISOString() }
      : { code: -1, message: 'Not found', data: null }
    return new Response(JSON.stringify(body), {
      status: answer ? 200 : 404,
      headers: { 'Content-Type': 'application/json' },
    })
  }) as typeof fetch
}
