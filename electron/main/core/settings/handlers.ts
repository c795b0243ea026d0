import type { SettingsPatch } from '@shared/settings'
import type { Handlers } from '../ipc/router'
import type { ConfirmPort, ConfirmRequest } from '../ports'
import type { SettingsService } from './service'

type SettingsChannels = Extract<keyof Handlers, `settings:${string}`>

/**
 * Settings that weaken a protection when turned on. A `settings:update` that turns one on takes effect only
 * after the person says yes in a dialog main shows (the `confirm` port): a renderer that runs script it
 * should not (a hostile data source's text that got through) cannot turn them on by IPC alone. Turning them
 * off needs no question.
 */
export const CONFIRMED_SETTINGS = {
  phoneSignIn: {
    title: 'Let your phone sign in?',
    message: 'Open the built-in library to your network?',
    detail:
      'Other devices on this network will be able to reach it. A phone signs in with the passphrase shown in Settings.',
    confirmLabel: 'Open to the network',
  },
  allowInsecureStorage: {
    title: 'Store the sign-in without encryption?',
    message: 'Keep your sign-in on disk without real encryption?',
    detail:
      'This computer offers no keyring, so anyone who can read your files could read the sign-in and use it.',
    confirmLabel: 'Store it anyway',
  },
} satisfies Record<string, ConfirmRequest>
type ConfirmedKey = keyof typeof CONFIRMED_SETTINGS

export function createSettingsHandlers(
  settings: SettingsService,
  confirm: ConfirmPort,
): Pick<Handlers, SettingsChannels> {
  return {
    'settings:get': () => settings.get(),
    'settings:update': async (patch) => {
      const applied: SettingsPatch = { ...patch }
      for (const key of Object.keys(CONFIRMED_SETTINGS) as ConfirmedKey[]) {
        if (applied[key] !== true || settings.get()[key]) continue
        const yes = await confirm(CONFIRMED_SETTINGS[key]).catch(() => false)
        // Declined: the setting stays as it was, and the answer (the settings as they are) says so.
        if (!yes) delete applied[key]
      }
      return Object.keys(applied).length > 0 ? settings.update(applied) : settings.get()
    },
  }
}
