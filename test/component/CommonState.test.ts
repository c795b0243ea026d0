import { describe, expect, it, vi } from 'vitest'
import { mount } from '@vue/test-utils'
import { CadenceError } from '@shared/errors'
import CommonState from '@renderer/components/common/CommonState.vue'
import { plugins } from './support'

vi.mock('@renderer/services/cadence', () => ({ invoke: vi.fn(), on: () => () => {} }))

function mountError(error: CadenceError) {
  const p = plugins()
  return mount(CommonState, {
    props: { kind: 'error', error },
    global: { plugins: [p.pinia, p.i18n, p.router] },
  })
}

describe('CommonState', () => {
  it('says a network failure in the user’s words and keeps the technical line behind Details', async () => {
    const wrapper = mountError(
      new CadenceError({
        kind: 'network',
        endpoint: '/playlist/detail',
        message: 'Cannot reach the data source at http://127.0.0.1:9 (ECONNREFUSED)',
      }),
    )
    const details = wrapper.get('[data-testid="error-details"]')
    expect(wrapper.get('[role="alert"] > p').text()).toBe(
      'The data source cannot be reached. Check the connection and try again.',
    )
    expect(details.element.tagName).toBe('DETAILS')
    expect((details.element as HTMLDetailsElement).open).toBe(false)
    expect(details.get('summary').text()).toBe('Details')
    expect(details.text()).toContain('ECONNREFUSED')
    expect(details.text()).toContain('/playlist/detail')
  })

  it('words an HTTP failure and an unreadable answer for people, with status and endpoint in Details', () => {
    const http = mountError(
      new CadenceError({ kind: 'http', status: 502, endpoint: '/song/url', message: 'HTTP 502 Bad Gateway' }),
    )
    expect(http.get('[role="alert"] > p').text()).toContain('had a problem answering')
    expect(http.get('[data-testid="error-details"]').text()).toContain('HTTP 502')
    const unreadable = mountError(new CadenceError({ kind: 'invalid-response', message: 'not JSON' }))
    expect(unreadable.get('[role="alert"] > p').text()).toContain('cannot read')
  })

  it("shows the server's own refusal as it is, with its code in Details", () => {
    const wrapper = mountError(new CadenceError({ kind: 'api', code: 404, message: '歌单不存在' }))
    expect(wrapper.get('[role="alert"] > p').text()).toBe('歌单不存在')
    expect(wrapper.get('[data-testid="error-details"]').text()).toContain('code 404')
  })
})
