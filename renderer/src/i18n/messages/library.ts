export default {
  en: {
    title: 'Library',
    likedSongs: 'Liked songs',
    signInPrompt: 'Log in to see your playlists and liked songs.',
    empty: 'You have no playlists yet.',
    loadMore: 'Load more',
    savedAlbums: 'Saved albums',
    noSavedAlbums: 'You have saved no albums yet.',
  },
  'zh-CN': {
    title: '音乐库',
    likedSongs: '我喜欢的音乐',
    signInPrompt: '登录后即可查看你的歌单和喜欢的音乐。',
    empty: '你还没有歌单。',
    loadMore: '加载更多',
    savedAlbums: '收藏的专辑',
    noSavedAlbums: '你还没有收藏专辑。',
  },
}
