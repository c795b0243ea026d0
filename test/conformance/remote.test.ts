import { describe } from 'vitest'
import { conformanceSuite } from './suite'

/** Runs the suite against CONFORMANCE_BASE_URL (see test/conformance/cli.ts); skipped when unset. */
const base = process.env.CONFORMANCE_BASE_URL
const flag = (name: string) => process.env[name] === '1' || process.env[name] === 'true'

describe.skipIf(!base)(`conformance of ${base ?? '(no CONFORMANCE_BASE_URL)'}`, () => {
  conformanceSuite(() => base as string, {
    phoneConfirm: process.env.CONFORMANCE_PHONE_PASSPHRASE
      ? { passphrase: process.env.CONFORMANCE_PHONE_PASSPHRASE }
      : undefined,
    reference: flag('CONFORMANCE_REFERENCE'),
    token: process.env.CONFORMANCE_TOKEN || undefined,
  })
})
