export default {
  en: { home: 'Home', main: 'Main navigation' },
  'zh-CN': { home: '首页', main: '主导航' },
}
