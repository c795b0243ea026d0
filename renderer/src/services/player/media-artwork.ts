/**
 * The media session's artwork in a form Chromium takes: it refuses any address but http(s), `data:` and
 * `blob:` ("MediaImage src can only be of http/https/data/blob scheme"), so a cover on the app's own
 * media scheme (the copy main keeps, shown offline) is read into a `blob:` address of the page's own.
 * One such address at a time: the one before is revoked when the next replaces it.
 */

const ACCEPTED = /^(https?:|data:|blob:)/i

/** Reads an image's bytes (the page's `fetch`, which reaches main's media scheme). */
export type ReadImage = (src: string) => Promise<Blob | null>

const readImage: ReadImage = async (src) => {
  const answer = await fetch(src)
  if (!answer.ok) return null
  const bytes = await answer.blob()
  return bytes.type.startsWith('image/') ? bytes : null
}

export function createArtworkSource(read: ReadImage = readImage) {
  /** The `blob:` address handed out last (revoked when another replaces it). */
  let owned: string | undefined
  /** Bumped on each ask: an answer for an earlier cover is dropped. */
  let asked = 0

  const release = () => {
    if (owned) URL.revokeObjectURL(owned)
    owned = undefined
  }

  return {
    /** Whether Chromium takes `src` as it is. */
    accepted: (src: string) => ACCEPTED.test(src),
    /**
     * An address for `src` the media session takes: `src` itself when it may, else a `blob:` of its bytes;
     * `undefined` when it cannot be read, or when another cover was asked for meanwhile.
     */
    async artwork(src: string | undefined): Promise<string | undefined> {
      const mine = ++asked
      if (!src) return (release(), undefined)
      if (ACCEPTED.test(src)) return (release(), src)
      const bytes = await read(src).catch(() => null)
      if (mine !== asked) return undefined
      release()
      if (!bytes) return undefined
      owned = URL.createObjectURL(bytes)
      return owned
    },
    dispose() {
      asked++
      release()
    },
  }
}
