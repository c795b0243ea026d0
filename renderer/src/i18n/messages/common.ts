export default {
  en: {
    loading: 'Loading…',
    retry: 'Retry',
    empty: 'Nothing here yet.',
    errorGeneric: 'Something went wrong',
    untitled: 'Untitled',
    songs: '{n} songs',
  },
  'zh-CN': {
    loading: '加载中…',
    retry: '重试',
    empty: '这里还没有内容。',
    errorGeneric: '出错了',
    untitled: '未命名',
    songs: '{n} 首歌曲',
  },
}
