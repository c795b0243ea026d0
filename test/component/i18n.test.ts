import { beforeAll, describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { createAppI18n, ensureLanguage, loadMessages } from '@renderer/i18n'
import { formatDuration, useSongCount } from '@renderer/composables/format'

function keys(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keys(value as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  )
}

describe('i18n messages', () => {
  let messages: Record<'en' | 'zh-CN', Record<string, unknown>>
  beforeAll(async () => {
    messages = { en: await loadMessages('en'), 'zh-CN': await loadMessages('zh-CN') }
  })

  it('has every English key in Simplified Chinese and no extra ones', () => {
    expect(keys(messages['zh-CN']).sort()).toEqual(keys(messages.en).sort())
  })

  it('has no empty message', () => {
    for (const language of ['en', 'zh-CN'] as const) {
      const tree = messages[language] as Record<string, unknown>
      for (const key of keys(tree)) {
        const value = key
          .split('.')
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree)
        expect(typeof value === 'string' && value.trim().length > 0, `${language} ${key}`).toBe(true)
      }
    }
  })
})

describe('song counts', () => {
  const counted = async (locale: 'en' | 'zh-CN', n: number) => {
    const i18n = createAppI18n()
    await ensureLanguage(i18n.global, locale)
    i18n.global.locale.value = locale
    const wrapper = mount(
      { setup: () => ({ count: useSongCount() }), template: '<p>{{ count(n) }}</p>', data: () => ({ n }) },
      {
        global: { plugins: [i18n] },
      },
    )
    return wrapper.text()
  }

  it('says "1 song" and "10,000 songs" in English', async () => {
    expect(await counted('en', 1)).toBe('1 song')
    expect(await counted('en', 0)).toBe('no songs')
    expect(await counted('en', 10_000)).toBe('10,000 songs')
  })

  it('counts in 万 from ten thousand in Chinese', async () => {
    expect(await counted('zh-CN', 12)).toBe('12首歌曲')
    expect(await counted('zh-CN', 10_000)).toBe('1 万首歌曲')
    expect(await counted('zh-CN', 125_000)).toBe('12.5 万首歌曲')
  })

  it('has only English until another language is asked for', async () => {
    const i18n = createAppI18n()
    expect(i18n.global.availableLocales).toEqual(['en'])
    await ensureLanguage(i18n.global, 'zh-CN')
    expect(i18n.global.availableLocales).toContain('zh-CN')
  })
})

describe('formatDuration', () => {
  it('rounds down everywhere, so a song ends on the time its row shows', () => {
    expect(formatDuration(239_600)).toBe('3:59')
    expect(formatDuration(3_725_000)).toBe('1:02:05')
    expect(formatDuration(undefined)).toBe('')
  })
})
