import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SettingsSources from '@renderer/components/settings/SettingsSources.vue'
import NotificationToasts from '@renderer/components/notifications/NotificationToasts.vue'
import { CadenceError } from '@shared/errors'
import type { DataSourceInfo, SourceList } from '@shared/ipc/contract'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

let list: SourceList
const lan: DataSourceInfo = {
  id: 'lan',
  name: '127.0.0.1:4101',
  url: 'http://127.0.0.1:4101',
  builtin: false,
  insecure: true,
}

async function mountSources() {
  const p = plugins()
  const wrapper = mount(
    {
      components: { SettingsSources, NotificationToasts },
      template: '<div><SettingsSources /><NotificationToasts /></div>',
    },
    { global: { plugins: [p.pinia, p.i18n, p.router] } },
  )
  await flushPromises()
  return wrapper
}

describe('SettingsSources', () => {
  beforeEach(() => {
    list = {
      activeId: 'builtin',
      sources: [
        { id: 'builtin', name: 'Built-in', url: 'http://127.0.0.1:5000', builtin: true, insecure: false },
        lan,
      ],
    }
    invoke.mockReset()
    invoke.mockImplementation(async (channel: string, args: { id: string; name: string }) => {
      if (channel === 'sources:list') return list
      if (channel === 'sources:rename') {
        list = {
          ...list,
          sources: list.sources.map((s) => (s.id === args.id ? { ...s, name: args.name } : s)),
        }
        return list.sources.find((s) => s.id === args.id)
      }
      return undefined
    })
  })

  it('adds host:port as an http address', async () => {
    const wrapper = await mountSources()
    await wrapper.get('[data-testid="source-url"]').setValue(' 192.168.1.20:4000 ')
    await wrapper.get('form.add').trigger('submit')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('sources:add', { url: 'http://192.168.1.20:4000' })
    expect(wrapper.find('[data-testid="source-url-error"]').exists()).toBe(false)
  })

  it('says under the field, in one wording, what is wrong with an address, and sends none that is not one', async () => {
    const wrapper = await mountSources()
    const field = wrapper.get('[data-testid="source-url"]')
    await field.setValue('not an address')
    await wrapper.get('form.add').trigger('submit')
    await flushPromises()
    expect(invoke).not.toHaveBeenCalledWith('sources:add', expect.anything())
    expect(wrapper.get('[data-testid="source-url-error"]').text()).toMatch(
      /^Not added: this is not a web address/,
    )
    expect(field.attributes('aria-invalid')).toBe('true')

    invoke.mockImplementationOnce(async () => {
      throw new CadenceError({ kind: 'unavailable', message: 'Cannot reach http://nas.local:4000' })
    })
    await field.setValue('nas.local:4000')
    await wrapper.get('form.add').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid="source-url-error"]').text()).toBe(
      'Not added: Cannot reach that address. Check it, and that the server is running.',
    )
    invoke.mockImplementationOnce(async () => {
      throw new CadenceError({
        kind: 'invalid-argument',
        message: 'It answered, but it is not a music data source',
      })
    })
    await wrapper.get('form.add').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid="source-url-error"]').text()).toBe(
      'Not added: It answered, but it is not a music data source',
    )
    // Said there, not in a toast far from the field.
    expect(wrapper.findAll('[data-testid="toast"]')).toHaveLength(0)
  })

  it('renames an added source through sources:rename, and shows the new name', async () => {
    const wrapper = await mountSources()
    expect(wrapper.findAll('[data-testid="source-rename"]')).toHaveLength(1)
    await wrapper.get('[data-testid="source-rename"]').trigger('click')
    await wrapper.get('[data-testid="source-name-input"]').setValue('Living room')
    await wrapper.get('[data-testid="source-rename-form"]').trigger('submit')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('sources:rename', { id: 'lan', name: 'Living room' })
    expect(wrapper.findAll('[data-testid="source"]')[1]!.text()).toContain('Living room')
  })
})
