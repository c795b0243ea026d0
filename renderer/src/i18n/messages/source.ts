export default {
  en: {
    starting: 'Starting the built-in library…',
    reconnecting: 'The built-in library stopped. Restarting it…',
    failed: 'The built-in library could not be restarted. Quit and reopen Cadence; your queue is kept.',
    offline:
      'Offline: the data source cannot be reached. Downloaded and recently played songs still play; the rest is skipped until it is back.',
    offlineDownloads: 'Downloaded songs',
    offlineTryAgain: 'Try again',
    offlineChecking: 'Checking…',
  },
  'zh-CN': {
    starting: '正在启动内置曲库…',
    reconnecting: '内置曲库已停止，正在重新启动…',
    failed: '内置曲库无法重新启动。请退出并重新打开 Cadence；播放队列会保留。',
    offline: '离线：无法连接数据源。已下载和最近播放的歌曲仍可播放，其余歌曲会被跳过，直到恢复连接。',
    offlineDownloads: '已下载的歌曲',
    offlineTryAgain: '重试',
    offlineChecking: '正在检查…',
  },
}
