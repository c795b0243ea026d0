export default {
  en: {
    main: 'Main navigation',
    home: 'Home',
    search: 'Search',
    library: 'Library',
    downloads: 'Downloaded',
    history: 'Recently played',
    settings: 'Settings',
    skip: 'Skip to content',
  },
  'zh-CN': {
    main: '主导航',
    home: '首页',
    search: '搜索',
    library: '音乐库',
    downloads: '已下载',
    history: '最近播放',
    settings: '设置',
    skip: '跳到内容',
  },
}
