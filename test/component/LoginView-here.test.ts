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
const HERE = { qrimg: IMG, qrurl: 'http://127.0.0.1:9/phone?key=1', onThisComputer: true }

async function mountLogin() {
  const p = plugins()
  await p.router.push('/login')
  const wrapper = mount(LoginView, { global: { plugins: [p.pinia, p.i18n, p.router] } })
  const auth = useAuthStore(p.pinia)
  const show = async (event: QrEvent) => {
    auth.qr = event
    await flushPromises()
  }
  return { wrapper, show }
}

describe('LoginView, a data source on this computer', () => {
  beforeEach(() => {
    invoke.mockReset()
    invoke.mockResolvedValue(undefined)
  })

  it('speaks of the sign-in page, not a phone, and once it is open here shows no code', async () => {
    const { wrapper, show } = await mountLogin()
    const status = () => wrapper.get('[data-testid="qr-status"]').text()
    await show({ phase: 'waiting', ...HERE })
    expect(status()).toBe('Waiting for you to confirm on the sign-in page.')
    expect(wrapper.get('[data-testid="qr-open-here"]').attributes('data-qrurl')).toBe(HERE.qrurl)
    await wrapper.get('[data-testid="qr-open-here"]').trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('auth:open-qr-page')
    expect(wrapper.find('[data-testid="qr-image"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="qr-page-icon"]').exists()).toBe(true)
    await show({ phase: 'scanned', ...HERE })
    expect(status()).toBe('The sign-in page is open — confirm there.')
    expect(wrapper.find('[data-testid="qr-image"]').exists()).toBe(false)
    await show({ phase: 'expired', ...HERE })
    expect(status()).toBe('The sign-in page expired — getting a new one…')
  })

  it('keeps the code when the page could not be opened here', async () => {
    const { wrapper, show } = await mountLogin()
    await show({ phase: 'waiting', ...HERE })
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'auth:open-qr-page') throw new CadenceError({ kind: 'forbidden', message: 'refused' })
    })
    await wrapper.get('[data-testid="qr-open-here"]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[data-testid="qr-open-error"]').text()).toContain(
      'Scan the code with your phone instead',
    )
    expect(wrapper.get('[data-testid="qr-image"]').attributes('src')).toBe(IMG)
  })
})
