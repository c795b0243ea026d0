export default {
  en: {
    starting: 'Starting the built-in library…',
    reconnecting: 'The built-in library stopped. Restarting it…',
    failed: 'The built-in library could not be restarted. Quit and reopen Cadence; your queue is kept.',
  },
  'zh-CN': {
    starting: '正在启动内置曲库…',
    reconnecting: '内置曲库已停止，正在重新启动…',
    failed: '内置曲库无法重新启动。请退出并重新打开 Cadence；播放队列会保留。',
  },
}
