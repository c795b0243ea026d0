/** Word banks for the demo catalogue. Every title and lyric line is assembled from these at random. */

export const ADJECTIVES = [
  'Midnight',
  'Neon',
  'Golden',
  'Silent',
  'Electric',
  'Velvet',
  'Paper',
  'Crystal',
  'Northern',
  'Summer',
  'Hollow',
  'Wild',
  'Quiet',
  'Burning',
  'Distant',
  'Silver',
  'Broken',
  'Endless',
  'Faded',
  'Lucky',
  'Blue',
  'Lonely',
  'Bright',
  'Frozen',
  'Secret',
  'Restless',
  'Gentle',
  'Crimson',
  'Hidden',
  'Early',
]

export const NOUNS = [
  'Lights',
  'River',
  'Dreams',
  'Highway',
  'Echoes',
  'Hearts',
  'City',
  'Ocean',
  'Stars',
  'Garden',
  'Fire',
  'Rain',
  'Shadows',
  'Waves',
  'Skyline',
  'Morning',
  'Window',
  'Engine',
  'Harbor',
  'Mountain',
  'Signal',
  'Letters',
  'Satellite',
  'Thunder',
  'Mirror',
  'Orchard',
  'Station',
  'Compass',
  'Lantern',
  'Feather',
]

export const VERBS = [
  'Running',
  'Falling',
  'Dancing',
  'Waiting',
  'Drifting',
  'Calling',
  'Chasing',
  'Burning',
  'Floating',
  'Holding',
]

export const PREPOSITIONS = ['to', 'through', 'under', 'across', 'beyond', 'into', 'over']

export const FIRST_NAMES = [
  'Ava',
  'Milo',
  'Nora',
  'Theo',
  'Iris',
  'Jonah',
  'Luna',
  'Felix',
  'Maya',
  'Oscar',
  'Clara',
  'Ezra',
  'Hazel',
  'Leon',
  'Vera',
  'Silas',
  'Ruby',
  'Arlo',
  'June',
  'Otis',
]

export const LAST_NAMES = [
  'Hart',
  'Vale',
  'Monroe',
  'Quinn',
  'Sterling',
  'Reyes',
  'Lindqvist',
  'Okafor',
  'Bellamy',
  'Castillo',
  'Ward',
  'Novak',
  'Fairchild',
  'Ashby',
  'Marlow',
  'Kestrel',
  'Holloway',
  'Pike',
  'Rowan',
  'Sato',
]

/** [Japanese, romaji, English]. */
export const JA_NOUNS: ReadonlyArray<readonly [string, string, string]> = [
  ['夜', 'yoru', 'Night'],
  ['星', 'hoshi', 'Star'],
  ['月', 'tsuki', 'Moon'],
  ['海', 'umi', 'Sea'],
  ['空', 'sora', 'Sky'],
  ['風', 'kaze', 'Wind'],
  ['雨', 'ame', 'Rain'],
  ['花', 'hana', 'Flower'],
  ['光', 'hikari', 'Light'],
  ['夢', 'yume', 'Dream'],
  ['夏', 'natsu', 'Summer'],
  ['街', 'machi', 'Town'],
  ['心', 'kokoro', 'Heart'],
  ['星空', 'hoshizora', 'Starry Sky'],
  ['花火', 'hanabi', 'Fireworks'],
  ['青空', 'aozora', 'Blue Sky'],
  ['夕焼け', 'yuuyake', 'Sunset'],
  ['銀河', 'ginga', 'Galaxy'],
  ['桜', 'sakura', 'Cherry Blossom'],
  ['朝', 'asa', 'Morning'],
]

/** Title patterns: [Japanese, romaji, English] with {a}/{b} placeholders. */
export const JA_TITLES: ReadonlyArray<readonly [string, string, string]> = [
  ['{a}', '{a}', '{A}'],
  ['{a}に駆ける', '{a} ni kakeru', 'Racing into the {A}'],
  ['{a}の{b}', '{a} no {b}', '{B} of the {A}'],
  ['{a}を見上げて', '{a} wo miagete', 'Looking Up at the {A}'],
  ['{a}の向こうへ', '{a} no mukou e', 'Beyond the {A}'],
  ['さよなら{a}', 'sayonara {a}', 'Goodbye, {A}'],
  ['{a}と{b}', '{a} to {b}', '{A} and {B}'],
]

/** Lyric line patterns: [Japanese, romaji, English]. */
export const JA_LINES: ReadonlyArray<readonly [string, string, string]> = [
  ['{a}の下で君を待つ', '{a} no shita de kimi wo matsu', 'I wait for you under the {A}'],
  ['{a}が{b}に溶けていく', '{a} ga {b} ni tokete iku', 'The {A} melts into the {B}'],
  ['遠い{a}を追いかけて', 'tooi {a} wo oikakete', 'Chasing the distant {A}'],
  ['{a}のように輝いて', '{a} no you ni kagayaite', 'Shining like the {A}'],
  ['忘れない {a}の色', 'wasurenai {a} no iro', 'I will not forget the colour of the {A}'],
  ['{a}に願いをかけた', '{a} ni negai wo kaketa', 'I made a wish upon the {A}'],
  ['もう一度 {a}へ', 'mou ichido {a} e', 'Once more, to the {A}'],
]

/** [Chinese, pinyin, English]. */
export const ZH_NOUNS: ReadonlyArray<readonly [string, string, string]> = [
  ['夜', 'yè', 'Night'],
  ['星空', 'xīng kōng', 'Starry Sky'],
  ['月光', 'yuè guāng', 'Moonlight'],
  ['晴天', 'qíng tiān', 'Clear Day'],
  ['海风', 'hǎi fēng', 'Sea Breeze'],
  ['城市', 'chéng shì', 'City'],
  ['梦', 'mèng', 'Dream'],
  ['银河', 'yín hé', 'Milky Way'],
  ['春天', 'chūn tiān', 'Spring'],
  ['雨', 'yǔ', 'Rain'],
  ['远方', 'yuǎn fāng', 'Far Away'],
  ['灯火', 'dēng huǒ', 'Lamplight'],
]

export const ZH_TITLES: ReadonlyArray<readonly [string, string, string]> = [
  ['{a}', '{a}', '{A}'],
  ['{a}之歌', '{a} zhī gē', 'Song of the {A}'],
  ['{a}里的{b}', '{a} lǐ de {b}', '{B} in the {A}'],
  ['听见{a}', 'tīng jiàn {a}', 'Hearing the {A}'],
  ['{a}与{b}', '{a} yǔ {b}', '{A} and {B}'],
]

export const ZH_LINES: ReadonlyArray<readonly [string, string, string]> = [
  ['我在{a}下等你', 'wǒ zài {a} xià děng nǐ', 'I wait for you beneath the {A}'],
  ['{a}和{b}都很安静', '{a} hé {b} dōu hěn ān jìng', 'The {A} and the {B} are quiet'],
  ['走过{a}的尽头', 'zǒu guò {a} de jìn tóu', 'Walking past the end of the {A}'],
  ['把{a}写进歌里', 'bǎ {a} xiě jìn gē lǐ', 'Writing the {A} into a song'],
  ['{a}还在心里', '{a} hái zài xīn lǐ', 'The {A} is still in my heart'],
]

export const EN_LINES = [
  'I keep {verb} {prep} the {adj} {noun}',
  'We were {verb} like the {noun} tonight',
  'Every {noun} is {adj} when you are near',
  'Hold on to the {adj} {noun}',
  'Tell me why the {noun} feels so {adj}',
  '{verb} {prep} the {noun}, never looking back',
  'Oh, the {adj} {noun} is calling me home',
  'Under {adj} {noun} we found our way',
]

export const JA_FAMILY = ['星野', '高橋', '月島', '青山', '小林', '桜井', '藤原', '水瀬']
export const JA_GIVEN = ['ひかり', 'あおい', '蓮', 'さくら', '湊', '陽菜', '奏', '美月']
export const ZH_FAMILY = ['林', '陈', '王', '周', '许', '苏']
export const ZH_GIVEN = ['子轩', '一鸣', '小雨', '思远', '若兰', '星辰']

export const EDITORIAL_PLAYLISTS: ReadonlyArray<readonly [string, string, 'any' | 'cjk' | 'en']> = [
  ['Morning Coffee', 'Easy songs for a slow start.', 'any'],
  ['Focus Flow', 'Steady music to keep you in the zone.', 'any'],
  ['Rainy Day', 'For grey skies and warm tea.', 'any'],
  ['City Pop Nights', 'Neon, chrome and late trains.', 'cjk'],
  ['夜の作業用BGM', '夜に集中したいときのプレイリスト。', 'cjk'],
  ['深夜电台', '陪你度过每一个深夜。', 'cjk'],
  ['Road Trip Anthems', 'Windows down, volume up.', 'en'],
  ['Chill Beats', 'Low-key grooves.', 'any'],
  ['Workout Boost', 'High energy for the last rep.', 'en'],
  ['Sunday Slow', 'Nothing to do, nowhere to be.', 'any'],
  ['Indie Discoveries', 'New voices worth hearing.', 'en'],
  ['J-Pop Essentials', 'The songs everyone knows.', 'cjk'],
  ['华语流行精选', '最好听的华语流行歌曲。', 'cjk'],
  ['Acoustic Evenings', 'Strings and voices, nothing else.', 'any'],
  ['Late Night Drive', 'Empty roads and city lights.', 'any'],
  ['Fresh Finds', 'Recently added and already loved.', 'any'],
]
