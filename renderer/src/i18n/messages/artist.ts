export default {
  en: {
    kind: 'Artist',
    hotSongs: 'Popular songs',
    noSongs: 'No songs from this artist yet.',
    noPages: 'This data source has no artist pages. Search for the artist to find their songs.',
  },
  'zh-CN': {
    kind: '歌手',
    hotSongs: '热门歌曲',
    noSongs: '这位歌手还没有歌曲。',
    noPages: '这个数据源没有歌手页面。可以搜索歌手名来找到他们的歌曲。',
  },
}
