import { createHmac } from 'node:crypto'

/**
 * Proof that this process is the one the desktop app started: the app hands a random nonce to the
 * utility process it forks (in its environment, never argv), and asks the address the process reported
 * to sign a fresh challenge with it before it sends any credential there. Whatever else holds that
 * address (a process that took the port after ours exited) cannot sign. The answer is an HMAC, so the
 * nonce never travels and one answer is no use for another challenge.
 */
export function instanceProof(nonce: string, challenge: string): string {
  return createHmac('sha256', nonce).update(challenge).digest('base64url')
}
