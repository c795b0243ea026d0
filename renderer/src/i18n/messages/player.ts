export default {
  en: {
    play: 'Play',
    pause: 'Pause',
    next: 'Next',
    previous: 'Previous',
    nothingPlaying: 'Nothing playing',
  },
  'zh-CN': {
    play: '播放',
    pause: '暂停',
    next: '下一首',
    previous: '上一首',
    nothingPlaying: '未在播放',
  },
}
