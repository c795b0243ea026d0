export default {
  en: {
    title: 'Lyrics',
    toolbar: 'Lyrics options',
    translation: 'Translation',
    transliteration: 'Transliteration',
    offset: 'Lyrics timing',
    offsetValue: 'Lyrics timing {value}; press to reset',
    earlier: 'Show lyrics 0.5 s earlier',
    later: 'Show lyrics 0.5 s later',
    resetOffset: 'Reset the timing',
    status: {
      none: 'Nothing playing. Play a song to see its lyrics.',
      loading: 'Loading lyrics…',
      empty: 'This song has no lyrics.',
    },
  },
  'zh-CN': {
    title: '歌词',
    toolbar: '歌词选项',
    translation: '翻译',
    transliteration: '音译',
    offset: '歌词时间',
    offsetValue: '歌词时间 {value}；点击重置',
    earlier: '歌词提前 0.5 秒',
    later: '歌词延后 0.5 秒',
    resetOffset: '重置时间',
    status: {
      none: '未在播放。播放一首歌即可查看歌词。',
      loading: '正在加载歌词…',
      empty: '这首歌没有歌词。',
    },
  },
}
