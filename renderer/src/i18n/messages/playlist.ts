export default {
  en: {
    playAll: 'Play all',
    shuffle: 'Shuffle',
    empty: 'This playlist has no songs.',
    filter: 'Search in this playlist',
    noMatches: 'No song in this playlist matches “{query}”.',
    searching: 'Searching…',
    type: { normal: 'Playlist', album: 'Album', dj: 'Radio', artist: 'Artist' },
  },
  'zh-CN': {
    playAll: '播放全部',
    shuffle: '随机播放',
    empty: '这个歌单里还没有歌曲。',
    filter: '在歌单内搜索',
    noMatches: '歌单里没有符合“{query}”的歌曲。',
    searching: '正在搜索…',
    type: { normal: '歌单', album: '专辑', dj: '电台', artist: '歌手' },
  },
}
