/**
 * The codecs the player streams: compressed audio read as a stream of frames, FLAC, MP3 and AAC in MP4
 * (`container.ts` says what a reader gives), and WAV, whose samples need no decoder (`wav.ts`).
 */
export type { Container, Frame, FrameAnswer, ReadRange, SeekPoint } from './container'
export { openFlac } from './flac'
export { openMp3 } from './mp3'
export { openMp4 } from './mp4'
export { openContainer } from './open'
export { decodeFrames, frameRange, parseWavHeader } from './wav'
export type { WavLayout } from './wav'
