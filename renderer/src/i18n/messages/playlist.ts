export default {
  en: {
    playAll: 'Play all',
    shuffle: 'Shuffle',
    empty: 'This playlist has no songs.',
    emptyLiked: 'No liked songs yet. Press ♡ on any song, or Like in its menu, and it will be here.',
    filter: 'Search in this playlist',
    noMatches: 'No song in this playlist matches “{query}”.',
    searching: 'Searching…',
    type: { normal: 'Playlist', album: 'Album', dj: 'Radio', artist: 'Artist' },
  },
  'zh-CN': {
    playAll: '播放全部',
    shuffle: '随机播放',
    empty: '这个歌单里还没有歌曲。',
    emptyLiked: '还没有喜欢的歌曲。点任意歌曲旁的 ♡，或在它的菜单里选“喜欢”，它就会出现在这里。',
    filter: '在歌单内搜索',
    noMatches: '歌单里没有符合“{query}”的歌曲。',
    searching: '正在搜索…',
    type: { normal: '歌单', album: '专辑', dj: '电台', artist: '歌手' },
  },
}
