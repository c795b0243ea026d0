export default {
  en: {
    title: 'Now playing',
    open: 'Open now playing',
    close: 'Close now playing',
    artists: 'Artists',
    album: 'Album: {name}',
    nothing: 'Nothing playing. Play a song and its lyrics appear here.',
  },
  'zh-CN': {
    title: '正在播放',
    open: '打开正在播放',
    close: '关闭正在播放',
    artists: '歌手',
    album: '专辑：{name}',
    nothing: '未在播放。播放一首歌，歌词会显示在这里。',
  },
}
