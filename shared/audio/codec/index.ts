/** Compressed audio read as a stream of frames: FLAC and MP3 (`container.ts` says what a reader gives). */
export type { Container, Frame, FrameAnswer, ReadRange, SeekPoint } from './container'
export { openFlac } from './flac'
export { openMp3 } from './mp3'
