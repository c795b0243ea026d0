export default {
  en: {
    title: 'Discord',
    toggle: 'Show what I’m listening to on Discord',
    hint: '“Listening to” with the title, artists, album, time left and the cover (when it is a public address). Cleared when the music pauses and during a private session.',
    status: {
      off: 'Off',
      paused: 'Paused during the private session.',
      'not-running': 'Discord is not running. Cadence connects when it starts.',
      connecting: 'Connecting to Discord…',
      connected: 'Connected to Discord.',
    },
  },
  'zh-CN': {
    title: 'Discord',
    toggle: '在 Discord 上显示正在收听的歌曲',
    hint: '“正在收听”：歌名、歌手、专辑、剩余时间和封面（仅限公开地址）。暂停时和隐私模式下会清除。',
    status: {
      off: '已关闭',
      paused: '隐私模式期间已暂停。',
      'not-running': 'Discord 未运行。Discord 启动后 Cadence 会自动连接。',
      connecting: '正在连接 Discord…',
      connected: '已连接 Discord。',
    },
  },
}
