export default {
  en: {
    foundBySearch:
      'The data source does not list this album’s songs, so these are the songs a search found for it. Some may be missing.',
    empty: 'No songs from this album were found.',
    albums: 'Albums',
    noAlbums: 'No albums from this artist were found.',
    albumsBySearch: 'Found by search',
    save: 'Save to library',
    saved: 'Saved',
    saveFailed: 'Could not save “{name}” to your library.',
  },
  'zh-CN': {
    foundBySearch: '数据源没有提供这张专辑的歌曲列表，以下是搜索到的这张专辑的歌曲，可能不完整。',
    empty: '没有找到这张专辑的歌曲。',
    albums: '专辑',
    noAlbums: '没有找到这位歌手的专辑。',
    albumsBySearch: '通过搜索找到',
    save: '收藏专辑',
    saved: '已收藏',
    saveFailed: '无法收藏“{name}”。',
  },
}
