import { confirmOnPhone } from './phone'

/**
 * A second sign-in of the owner, as their phone's own app would hold it: the QR flow run against `base`
 * and confirmed on the phone page. Resolves with the credential (for `Token`), so a test can like songs
 * "on the phone", outside Cadence.
 */
export async function phoneCredential(base: string): Promise<string> {
  const get = async (path: string) => {
    const answer = await fetch(new URL(path, base))
    return ((await answer.json()) as { data: Record<string, unknown> }).data
  }
  const { unikey } = (await get('/connect/qr/key')) as { unikey: string }
  const { qrurl } = (await get(`/connect/qr/create?key=${unikey}&qrimg=false`)) as { qrurl: string }
  const confirmed = await confirmOnPhone(qrurl)
  if (confirmed.status !== 200) throw new Error(`the phone page answered ${confirmed.status}`)
  const { cookie } = (await get(`/connect/qr/check?key=${unikey}`)) as { cookie: string }
  if (!cookie) throw new Error('no credential after confirming')
  return cookie
}

/** Likes (or unlikes) a song with that credential, as the phone would. */
export async function likeOnPhone(base: string, credential: string, id: string | number, like = true) {
  const answer = await fetch(new URL(`/song/like?id=${encodeURIComponent(String(id))}&like=${like}`, base), {
    method: 'PUT',
    headers: { token: credential },
  })
  const json = (await answer.json()) as { code: number; message?: string }
  if (json.code !== 0) throw new Error(`like refused: ${json.message}`)
}
