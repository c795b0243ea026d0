export default {
  en: { title: 'Home', recommendedPlaylists: 'Recommended playlists' },
  'zh-CN': { title: '首页', recommendedPlaylists: '推荐歌单' },
}
