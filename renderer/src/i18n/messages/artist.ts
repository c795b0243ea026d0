export default {
  en: { kind: 'Artist', hotSongs: 'Popular songs', noSongs: 'No songs from this artist yet.' },
  'zh-CN': { kind: '歌手', hotSongs: '热门歌曲', noSongs: '这位歌手还没有歌曲。' },
}
