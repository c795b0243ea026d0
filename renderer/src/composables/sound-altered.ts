import { computed } from 'vue'
import { useI18n } from 'vue-i18n'
import { useSettingsStore } from '@renderer/stores/settings'

/**
 * Whether the sound is changed on its way out (a speed other than 1×, an equaliser that is on and not
 * flat), and the words saying how: the Sound button's dot and tooltip.
 */
export function useSoundAltered() {
  const { t, n } = useI18n()
  const settings = useSettingsStore()
  const changes = computed(() => {
    const { speed, equaliser } = settings.settings
    const out: string[] = []
    if (speed !== 1) out.push(t('player.soundSpeed', { speed: n(speed, { maximumFractionDigits: 2 }) }))
    if (equaliser.enabled && (equaliser.preamp !== 0 || equaliser.gains.some((gain) => gain !== 0)))
      out.push(t('player.soundEqualiser'))
    return out
  })
  const altered = computed(() => changes.value.length > 0)
  const title = computed(() =>
    altered.value ? t('player.soundAltered', { changes: changes.value.join(', ') }) : t('player.sound'),
  )
  return { altered, title }
}
