import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SettingsView from '@renderer/views/SettingsView.vue'
import NotificationToasts from '@renderer/components/notifications/NotificationToasts.vue'
import { useSettingsStore } from '@renderer/stores/settings'
import { useAuthStore } from '@renderer/stores/auth'
import { useSourcesStore } from '@renderer/stores/sources'
import { DEFAULT_SETTINGS } from '@shared/settings'
import { CadenceError } from '@shared/errors'
import type { AuthState } from '@shared/ipc/contract'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

const signedIn = {
  sourceId: 'builtin',
  status: 'signed-in',
  user: { id: 1, name: 'Owner' },
  storage: { mode: 'insecure', encryptionUnavailable: true, backend: 'basic_text' },
} as AuthState
const sources = {
  activeId: 'builtin',
  sources: [
    { id: 'lan', name: 'LAN box', url: 'http://192.168.1.20:4000', builtin: false, insecure: true },
    { id: 'builtin', name: 'Built-in', url: 'http://127.0.0.1:5000', builtin: true, insecure: false },
  ],
}

async function mountSettings() {
  const p = plugins()
  const wrapper = mount(
    {
      components: { SettingsView, NotificationToasts },
      template: '<div><SettingsView /><NotificationToasts /></div>',
    },
    { global: { plugins: [p.pinia, p.i18n, p.router] } },
  )
  const settings = useSettingsStore(p.pinia)
  const auth = useAuthStore(p.pinia)
  auth.state = signedIn
  await settings.load()
  await flushPromises()
  return { wrapper, settings, auth }
}

describe('SettingsView', () => {
  beforeEach(() => {
    invoke.mockReset()
    invoke.mockImplementation(async (channel: string, args: unknown) => {
      if (channel === 'settings:get') return DEFAULT_SETTINGS
      if (channel === 'settings:update') return { ...DEFAULT_SETTINGS, ...(args as object) }
      if (channel === 'sources:list') return sources
      return undefined
    })
  })

  it('lists data sources with the built-in one first and warns about plain http', async () => {
    const { wrapper } = await mountSettings()
    const rows = wrapper.findAll('[data-testid="source"]')
    expect(rows[0].text()).toContain('Built-in library')
    expect(rows[1].text()).toContain('LAN box')
    expect(rows[1].find('[data-testid="insecure-warning"]').exists()).toBe(true)
    expect(rows[0].find('[data-testid="insecure-warning"]').exists()).toBe(false)
  })

  it('adds a data source by URL', async () => {
    const { wrapper } = await mountSettings()
    await wrapper.get('[data-testid="source-url"]').setValue('https://music.example.com')
    await wrapper.get('form.add').trigger('submit')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('sources:add', { url: 'https://music.example.com' })
  })

  it('lets an added source use one more host of the network', async () => {
    const { wrapper } = await mountSettings()
    const forms = wrapper.findAll('[data-testid="source-local-host"]')
    expect(forms).toHaveLength(1)
    await forms[0]!.get('input').setValue(' nas.local ')
    await forms[0]!.trigger('submit')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('sources:set-local-host', { id: 'lan', host: 'nas.local' })
  })

  it('shows the account and asks consent for insecure storage when there is no keyring', async () => {
    const { wrapper } = await mountSettings()
    expect(wrapper.get('[data-testid="account-name"]').text()).toBe('Owner')
    expect(wrapper.get('[data-testid="insecure-storage"]').text()).toContain('no keyring')
    await wrapper.get('[data-testid="allow-insecure"]').setValue(true)
    expect(invoke).toHaveBeenCalledWith('settings:update', { allowInsecureStorage: true })
  })

  it('changes the theme and language through settings:update', async () => {
    const { wrapper, settings } = await mountSettings()
    await wrapper.get('input[name="theme"][value="dark"]').setValue(true)
    expect(invoke).toHaveBeenCalledWith('settings:update', { theme: 'dark' })
    await wrapper.get('input[name="language"][value="zh-CN"]').setValue(true)
    await flushPromises()
    expect(settings.language).toBe('zh-CN')
  })

  it('offers loudness normalisation at −14 LUFS by default, −18 or off', async () => {
    const { wrapper } = await mountSettings()
    const choices = wrapper.findAll('input[name="loudness"]')
    expect(choices.map((input) => (input.element as HTMLInputElement).value)).toEqual(['-14', '-18', 'off'])
    expect((wrapper.get('input[name="loudness"][value="-14"]').element as HTMLInputElement).checked).toBe(
      true,
    )
    await wrapper.get('input[name="loudness"][value="off"]').setValue(true)
    expect(invoke).toHaveBeenCalledWith('settings:update', { loudness: 'off' })
  })

  it('rolls a refused change back and says why', async () => {
    const { wrapper, settings } = await mountSettings()
    invoke.mockRejectedValueOnce(new CadenceError({ kind: 'internal', message: 'disk full' }))
    await wrapper.get('input[name="quality"][value="lossless"]').setValue(true)
    await flushPromises()
    expect(settings.settings.quality).toBe('exhigh')
    expect(wrapper.get('[data-testid="toast"]').text()).toContain('disk full')
  })

  it('logs out', async () => {
    const { wrapper } = await mountSettings()
    await wrapper.get('[data-testid="logout"]').trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('auth:logout')
  })

  describe('Let my phone sign in', () => {
    /** Main's answer: the setting as last saved, listening once the relaunch is done. */
    let phoneOn = false
    let listening = false
    beforeEach(() => {
      phoneOn = false
      listening = false
      const base = invoke.getMockImplementation()!
      invoke.mockImplementation(async (channel: string, args: unknown) => {
        if (
          channel === 'settings:update' &&
          typeof (args as { phoneSignIn?: boolean }).phoneSignIn === 'boolean'
        ) {
          phoneOn = (args as { phoneSignIn: boolean }).phoneSignIn
          return { ...DEFAULT_SETTINGS, phoneSignIn: phoneOn }
        }
        if (channel === 'sources:phone-access') {
          return phoneOn
            ? {
                enabled: true,
                listening,
                addresses: listening ? ['http://192.168.1.20:41234'] : [],
                // Main answers the passphrase only to the call made for "Show".
                ...((args as { show?: boolean } | undefined)?.show
                  ? { passphrase: 'abcd-efgh-jkmn-pqrs' }
                  : {}),
                kept: 'encrypted',
              }
            : { enabled: false, listening: false, addresses: [], kept: 'encrypted' }
        }
        if (channel === 'sources:renew-phone-passphrase') return true
        return base(channel, args)
      })
    })

    it('is off by default and shows no address or passphrase', async () => {
      const { wrapper } = await mountSettings()
      const toggle = wrapper.get('[data-testid="settings-phone-sign-in"]')
      expect((toggle.element as HTMLInputElement).checked).toBe(false)
      expect(wrapper.find('[data-testid="phone-access"]').exists()).toBe(false)
      expect(wrapper.text()).not.toContain('abcd-efgh')
    })

    it('turns on through settings:update, then shows the address and, when asked, the passphrase', async () => {
      const { wrapper } = await mountSettings()
      await wrapper.get('[data-testid="settings-phone-sign-in"]').setValue(true)
      await flushPromises()
      expect(invoke).toHaveBeenCalledWith('settings:update', { phoneSignIn: true })
      // Main is still restarting the built-in library on the network.
      expect(wrapper.get('[data-testid="phone-access"]').text()).toContain('Opening the built-in library')
      // The restarted library arrives with the source list; the address follows.
      listening = true
      const sources = useSourcesStore()
      sources.list.data = { ...sources.list.data!, activeId: 'builtin' }
      await flushPromises()
      expect(wrapper.get('[data-testid="phone-address"]').text()).toBe('http://192.168.1.20:41234')
      const passphrase = wrapper.get('[data-testid="phone-passphrase"]')
      expect(passphrase.text()).not.toContain('abcd-efgh-jkmn-pqrs')
      // Asked for only now, on the click.
      expect(
        invoke.mock.calls.filter(([channel, args]) => channel === 'sources:phone-access' && args),
      ).toEqual([])
      await wrapper.get('[data-testid="phone-reveal"]').trigger('click')
      await flushPromises()
      expect(invoke).toHaveBeenCalledWith('sources:phone-access', { show: true })
      expect(wrapper.get('[data-testid="phone-passphrase"]').text()).toBe('abcd-efgh-jkmn-pqrs')
      expect(wrapper.get('[data-testid="phone-kept"]').text()).toContain('encrypted')
      // Hidden again: the passphrase is gone from the page, not just masked.
      await wrapper.get('[data-testid="phone-reveal"]').trigger('click')
      await flushPromises()
      expect(wrapper.html()).not.toContain('abcd-efgh')
      // "New passphrase" asks main (which confirms in its own dialog).
      await wrapper.get('[data-testid="phone-renew"]').trigger('click')
      await flushPromises()
      expect(invoke).toHaveBeenCalledWith('sources:renew-phone-passphrase')
    })

    it('hides everything again when turned off', async () => {
      phoneOn = true
      listening = true
      const { wrapper } = await mountSettings()
      await flushPromises()
      expect(wrapper.find('[data-testid="phone-access"]').exists()).toBe(false)
      // The setting store still says off (DEFAULT_SETTINGS): main's answer alone shows nothing.
      await wrapper.get('[data-testid="settings-phone-sign-in"]').setValue(true)
      await flushPromises()
      expect(wrapper.find('[data-testid="phone-address"]').exists()).toBe(true)
      await wrapper.get('[data-testid="settings-phone-sign-in"]').setValue(false)
      await flushPromises()
      expect(invoke).toHaveBeenCalledWith('settings:update', { phoneSignIn: false })
      expect(wrapper.find('[data-testid="phone-access"]').exists()).toBe(false)
      expect(wrapper.text()).not.toContain('abcd-efgh')
    })
  })
})
