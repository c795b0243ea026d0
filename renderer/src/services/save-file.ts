import type { CollectionFile } from '@shared/ipc/contract'

/** Saves a file the way a browser downloads one (Electron asks where to save it). */
export function saveFile(file: CollectionFile): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: `${file.mime};charset=utf-8` }))
  const link = document.createElement('a')
  link.href = url
  link.download = file.fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
