import { describe, expect, it } from 'vitest'
import { collectMessages } from '@renderer/i18n'

function keys(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keys(value as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  )
}

describe('i18n messages', () => {
  const messages = collectMessages()

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
