export default {
  en: {
    playAll: 'Play all',
    shuffle: 'Shuffle',
    empty: 'This playlist has no songs.',
    type: { normal: 'Playlist', album: 'Album', dj: 'Radio', artist: 'Artist' },
  },
  'zh-CN': {
    playAll: '播放全部',
    shuffle: '随机播放',
    empty: '这个歌单里还没有歌曲。',
    type: { normal: '歌单', album: '专辑', dj: '电台', artist: '歌手' },
  },
}
