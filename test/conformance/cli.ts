/**
 * Runs the conformance suite against any data source:
 *   npm run conformance -- --base-url http://127.0.0.1:4000 [--phone-confirm PASSPHRASE] [--reference] [--token CRED]
 * --phone-confirm: the server's qrurl is the reference server's phone page; confirm logins on it with this
 *   owner passphrase.
 * --reference: also check the reference server's own choices (HTTP statuses, caps, demo catalogue).
 * --token: a credential obtained out of band, to run the login-only checks against other servers.
 */
import { spawn } from 'node:child_process'

const args = process.argv.slice(2)
let baseUrl: string | undefined
const env: Record<string, string> = {}
for (let i = 0; i < args.length; i++) {
  const a = args[i]
  if (a === '--base-url' || a === '--url') baseUrl = args[++i]
  else if (a.startsWith('--base-url=')) baseUrl = a.slice('--base-url='.length)
  else if (a === '--phone-confirm') env.CONFORMANCE_PHONE_PASSPHRASE = args[++i] ?? ''
  else if (a === '--reference') env.CONFORMANCE_REFERENCE = '1'
  else if (a === '--token') env.CONFORMANCE_TOKEN = args[++i] ?? ''
  else {
    process.stderr.write(`Unknown option ${a}\n`)
    process.exit(2)
  }
}
if (!baseUrl || !/^https?:\/\//.test(baseUrl)) {
  process.stderr.write(
    'Usage: npm run conformance -- --base-url http://host:port [--phone-confirm PASSPHRASE] [--reference] [--token CRED]\n',
  )
  process.exit(2)
}

const child = spawn(
  process.platform === 'win32' ? 'npx.cmd' : 'npx',
  ['vitest', 'run', '--project', 'integration', 'test/conformance/remote.test.ts'],
  { stdio: 'inherit', env: { ...process.env, ...env, CONFORMANCE_BASE_URL: baseUrl } },
)
child.on('exit', (code) => process.exit(code ?? 1))
