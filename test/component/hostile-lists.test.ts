import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import PlaylistHeader from '@renderer/components/playlist/PlaylistHeader.vue'
import { ensureLanguage } from '@renderer/i18n'
import type { Language } from '@shared/settings'
import type { PlaylistHead } from '@shared/ipc/contract'
import { plugins, song } from './support'

/**
 * Issue 33, item 1, as a person sees it: a list whose data source claims more songs than main keeps
 * (`capped`, from main's paged catalogue or album detail) says so in its header, in every language.
 */
const head = (extra: Partial<PlaylistHead>): PlaylistHead => ({
  id: 1,
  name: 'Endless',
  type: 'normal',
  cover: undefined,
  size: 100_000,
  creator: undefined,
  description: undefined,
  meta: undefined,
  total: 100_000,
  rows: [song(1)],
  ...extra,
})

async function header(playlist: PlaylistHead, language: Language = 'en') {
  const p = plugins()
  await ensureLanguage(p.i18n.global, language)
  p.i18n.global.locale.value = language
  return mount(PlaylistHeader, {
    props: { playlist, kind: 'Playlist' },
    global: { plugins: [p.pinia, p.i18n, p.router] },
  })
}

describe('PlaylistHeader of a list main cut short', () => {
  it('says how many more songs the data source claims and that the first 100,000 show', async () => {
    const wrapper = await header(head({ capped: { claimed: 1e12, shown: 100_000 } }))
    expect(wrapper.get('[data-testid="playlist-capped"]').text()).toBe(
      'The data source says there are 999,999,900,000 more songs; showing the first 100,000.',
    )
    expect(wrapper.get('[data-testid="playlist-count"]').text()).toBe('100,000 songs')
    // A list shown whole says nothing of the kind.
    const whole = await header(head({ size: 20, total: 20 }))
    expect(whole.find('[data-testid="playlist-capped"]').exists()).toBe(false)
  })

  it('says it in Simplified Chinese', async () => {
    const wrapper = await header(head({ capped: { claimed: 150_000, shown: 100_000 } }), 'zh-CN')
    expect(wrapper.get('[data-testid="playlist-capped"]').text()).toBe(
      '数据源称还有 5 万 首歌曲；只显示前 10 万 首。',
    )
  })
})
