import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { defineComponent, h } from 'vue'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Song } from '@shared/api/models'
import NowPlayingBar from '@renderer/components/player/NowPlayingBar.vue'
import { createAppI18n } from '@renderer/i18n'
import { usePlayerStore } from '@renderer/stores/player'
import { usePlayerStartup } from '@renderer/composables/player-startup'
import { formatDuration, totalDuration } from '@renderer/composables/format'
import { audios, lastAudio, resolved, song } from './player-fakes'

/**
 * One rounding rule for times (issue 34's polish): the list's, the bar's and a header's total agree, the
 * bar's total is the song's own length, and the seek slider reaches its end when the song does.
 */

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (await import('./player-fakes')).createFakeAudio,
}))

const AppWithBar = defineComponent({
  setup() {
    usePlayerStartup()
    return () => h(NowPlayingBar)
  },
})

async function mountBar() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/', name: 'home', component: { render: () => h('div') } }],
  })
  await router.push('/')
  const wrapper = mount(AppWithBar, {
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n(), router] },
  })
  await flushPromises()
  return { wrapper, player: usePlayerStore(pinia) }
}

/** A song of 25.6 s, as its list gives it. */
const short = song(1, { duration: 25_600 })

beforeEach(() => {
  document.body.innerHTML = ''
  audios.length = 0
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string) => {
    if (channel === 'settings:get') return DEFAULT_SETTINGS
    if (channel === 'player:resolve') return resolved(short as Song)
    if (channel === 'player:load-session') return null
    return undefined
  })
})
enableAutoUnmount(afterEach)

describe('times of a song', () => {
  it("shows the song's own length in the bar, not the audio's estimate of it", async () => {
    const { wrapper, player } = await mountBar()
    await player.playSongs([short])
    await flushPromises()
    // The decoder's estimate of a stream (a VBR file, a header that lies) says 36 s.
    lastAudio().duration = 36
    lastAudio().emit('durationchange')
    await flushPromises()
    expect(wrapper.get('[data-testid="player-duration"]').text()).toBe('0:25')
  })

  it('puts the slider at its end when the clock reaches the last second shown', async () => {
    const { wrapper, player } = await mountBar()
    await player.playSongs([short])
    await flushPromises()
    lastAudio().advance(25.4)
    await flushPromises()
    const slider = wrapper.get('[data-testid="player-seek"]').element as HTMLInputElement
    expect(wrapper.get('[data-testid="player-position"]').text()).toBe('0:25')
    expect(wrapper.get('[data-testid="player-duration"]').text()).toBe('0:25')
    expect(slider.value).toBe(slider.max)
  })

  it("rounds a list's total down as a row's time is: 0:19 and 0 min 19 s", () => {
    expect(formatDuration(19_600)).toBe('0:19')
    expect(totalDuration(19_600)).toEqual({ key: 'common.totalMinutes', values: { m: 0, s: 19 } })
  })
})
