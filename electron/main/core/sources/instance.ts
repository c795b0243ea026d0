import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { readCapped } from '../api/read-capped'

/**
 * Is the process at `url` the built-in data source this app started? The core makes a random nonce for
 * each start and hands it to the process (sources/phone-access.ts, the glue's utility process env); before
 * any credential goes to the address the process reported, the core asks it to sign a fresh challenge
 * (`GET /cadence/instance`, server/instance.ts). Whatever else holds that address (a process that took the
 * port after ours exited) cannot. No credential is sent with the question.
 */

/** A new secret for one start of the built-in data source. */
export const makeInstanceNonce = (): string => randomBytes(32).toString('base64url')

const proofFor = (nonce: string, challenge: string) =>
  createHmac('sha256', nonce).update(challenge).digest('base64url')

export async function isOurInstance(
  url: string,
  nonce: string,
  fetchImpl: typeof fetch,
  timeoutMs = 10_000,
): Promise<boolean> {
  const challenge = randomBytes(24).toString('base64url')
  try {
    const response = await fetchImpl(`${url}/cadence/instance?challenge=${challenge}`, {
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!response.ok) return false
    const body = JSON.parse(
      new TextDecoder().decode(await readCapped(response, 4096, '/cadence/instance')),
    ) as {
      data?: { proof?: unknown }
    }
    const proof = body?.data?.proof
    if (typeof proof !== 'string') return false
    const expected = Buffer.from(proofFor(nonce, challenge))
    const given = Buffer.from(proof)
    return given.length === expected.length && timingSafeEqual(given, expected)
  } catch {
    return false
  }
}
