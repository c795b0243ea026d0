import { computed } from 'vue'
import type { EqPresetName, LoudnessChoice, Settings } from '@shared/settings'
import { choosePreset, resetEqualiser, withBand, withPreamp } from '@renderer/services/player/audio/equaliser'
import { useSettingsStore } from '@renderer/stores/settings'
import { useSettingUpdate } from './settingUpdate'

/**
 * The sound settings as the controls change them (Settings → Playback and the player bar's sound
 * panel): each change is one `settings:update` (a refusal is rolled back and reported), and the player
 * hears it from the settings (stores/player-sound.ts).
 */
export function useSoundSettings() {
  const settings = useSettingsStore()
  const update = useSettingUpdate()
  const equaliser = computed(() => settings.settings.equaliser)
  const setEqualiser = (next: Settings['equaliser']) => update({ equaliser: next })
  return {
    equaliser,
    speed: computed(() => settings.settings.speed),
    crossfadeSeconds: computed(() => settings.settings.crossfadeSeconds),
    loudness: computed(() => settings.settings.loudness),
    outputDevice: computed(() => settings.settings.outputDevice),
    setEqualiserOn: (enabled: boolean) => setEqualiser({ ...equaliser.value, enabled }),
    choosePreset: (preset: EqPresetName) => setEqualiser(choosePreset(equaliser.value, preset)),
    setBand: (band: number, db: number) => setEqualiser(withBand(equaliser.value, band, db)),
    setPreamp: (db: number) => setEqualiser(withPreamp(equaliser.value, db)),
    resetEqualiser: () => setEqualiser(resetEqualiser(equaliser.value)),
    setSpeed: (speed: number) => update({ speed }),
    setCrossfade: (crossfadeSeconds: number) => update({ crossfadeSeconds }),
    setLoudness: (loudness: LoudnessChoice) => update({ loudness }),
    chooseDevice: (id: string, label: string) => update({ outputDevice: { id, label } }),
  }
}
