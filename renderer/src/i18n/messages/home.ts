export default {
  en: {
    title: 'Home',
    morning: 'Good morning',
    afternoon: 'Good afternoon',
    evening: 'Good evening',
    recommendedPlaylists: 'Recommended playlists',
    toplists: 'Charts',
    recommendedSongs: 'Recommended songs',
    recommendedArtists: 'Recommended artists',
  },
  'zh-CN': {
    title: '首页',
    morning: '早上好',
    afternoon: '下午好',
    evening: '晚上好',
    recommendedPlaylists: '推荐歌单',
    toplists: '排行榜',
    recommendedSongs: '推荐歌曲',
    recommendedArtists: '推荐歌手',
  },
}
