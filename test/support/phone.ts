import { phoneFormToken } from '@main/core/auth/builtin-signin'

/** The owner passphrase every test server is started with (`startDataSource({ ownerPassphrase })`). */
export const OWNER_PASSPHRASE = 'correct horse battery staple'

/**
 * The owner's phone on the reference server's QR page: opens it (marks the code scanned, gets the form's
 * token), then posts the action with the passphrase as the page's own form would. Resolves with the POST's
 * response; `cookie` sends a remembered-phone cookie instead of (or beside) the passphrase.
 */
export async function confirmOnPhone(
  qrurl: string,
  options: { passphrase?: string | null; action?: 'confirm' | 'deny'; cookie?: string; origin?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = options.cookie ? { cookie: options.cookie } : {}
  const page = await fetch(qrurl, { headers })
  const token = phoneFormToken(await page.text()) ?? ''
  const form = new URLSearchParams({ action: options.action ?? 'confirm', token })
  const passphrase = options.passphrase === undefined ? OWNER_PASSPHRASE : options.passphrase
  if (passphrase !== null) form.set('passphrase', passphrase)
  form.set('remember', '1')
  return fetch(qrurl, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/x-www-form-urlencoded',
      origin: options.origin ?? new URL(qrurl).origin,
    },
    body: form.toString(),
  })
}
