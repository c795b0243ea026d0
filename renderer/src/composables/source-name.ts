import { useI18n } from 'vue-i18n'
import { useSourcesStore } from '@renderer/stores/sources'

/**
 * A data source's name as Settings shows it ("Built-in library", or the name it was added with), by id;
 * without an id, the active source's. Loads the list of sources once if nobody has yet.
 */
export function useSourceName(): (id?: string) => string {
  const { t } = useI18n()
  const sources = useSourcesStore()
  if (sources.list.status === 'idle') void sources.load().catch(() => undefined)
  return (id) => {
    const wanted = id ?? sources.activeId
    const source = sources.sources.find((s) => s.id === wanted)
    if (!source) return wanted ?? ''
    return source.builtin ? t('settings.builtinSource') : source.name
  }
}
