import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import LoginView from '@renderer/views/LoginView.vue'
import { useAuthStore } from '@renderer/stores/auth'
import type { QrEvent } from '@shared/ipc/contract'
import { CadenceError } from '@shared/errors'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

const IMG = 'data:image/png;base64,iVBORw0KGgo='

async function mountLogin() {
  const p = plugins()
  await p.router.push('/login')
  const wrapper = mount(LoginView, { global: { plugins: [p.pinia, p.i18n, p.router] } })
  const auth = useAuthStore(p.pinia)
  const show = async (event: QrEvent) => {
    auth.qr = event
    await flushPromises()
  }
  return { wrapper, auth, router: p.router, show }
}

describe('LoginView', () => {
  beforeEach(() => {
    vi.useRealTimers()
    invoke.mockReset()
    invoke.mockResolvedValue(undefined)
  })

  it('starts the QR login on mount', async () => {
    const { wrapper } = await mountLogin()
    expect(invoke).toHaveBeenCalledWith('auth:start-qr')
    expect(wrapper.get('[data-testid="qr-status"]').text()).toContain('Getting a code')
  })

  it('shows each phase', async () => {
    const { wrapper, show } = await mountLogin()
    const status = () => wrapper.get('[data-testid="qr-status"]').text()

    await show({ phase: 'waiting', qrimg: IMG, qrurl: 'http://x/phone?key=1' })
    expect(wrapper.get('[data-testid="qr-image"]').attributes('src')).toBe(IMG)
    expect(wrapper.get('[data-testid="qr-image"]').attributes('data-qrurl')).toBe('http://x/phone?key=1')
    expect(wrapper.text()).toContain('Scan the code with your phone’s camera')
    expect(status()).toContain('Waiting')

    await show({ phase: 'scanned', qrimg: IMG })
    expect(status()).toContain('confirm on your phone')

    await show({ phase: 'expired', qrimg: IMG })
    expect(status()).toContain('expired')

    await show({ phase: 'waiting', qrimg: IMG, refreshes: 1 })
    expect(status()).toContain('here is a new one')

    await show({
      phase: 'error',
      error: { name: 'DataSourceError', kind: 'network', message: 'ECONNREFUSED' },
    })
    expect(status()).toContain('cannot be reached')
    expect(wrapper.text()).toContain('ECONNREFUSED')
    invoke.mockClear()
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Retry')!
      .trigger('click')
    expect(invoke).toHaveBeenCalledWith('auth:start-qr')
  })

  it('goes back to where the user was once signed in', async () => {
    const { auth, router, show } = await mountLogin()
    auth.returnTo = '/playlist/7'
    vi.useFakeTimers()
    await show({ phase: 'authorised', user: { id: 1, name: 'Owner' } } as QrEvent)
    vi.advanceTimersByTime(1000)
    vi.useRealTimers()
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/playlist/7')
  })

  it('cancels the flow with Cancel', async () => {
    const { wrapper, show, router } = await mountLogin()
    await show({ phase: 'waiting', qrimg: IMG })
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Cancel')!
      .trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('auth:cancel-qr')
    expect(router.currentRoute.value.path).toBe('/')
  })

  it('says plainly when "Open here" opened nothing', async () => {
    const { wrapper, show } = await mountLogin()
    await show({ phase: 'waiting', qrimg: IMG, qrurl: 'http://127.0.0.2:9/phone', onThisComputer: true })
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'auth:open-qr-page') {
        throw new CadenceError({ kind: 'forbidden', message: 'The sign-in page is at http://127.0.0.2:9' })
      }
    })
    await wrapper.get('[data-testid="qr-open-here"]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[data-testid="qr-open-error"]').text()).toContain('did not open this sign-in page')
  })
})
