/** The sentence a voice preview speaks, in the voice's language (the catalog's languages; English otherwise). */
const SAMPLES: Record<string, string> = {
  en: 'Hello! This is how I sound when I read your text aloud.',
  cs: 'Dobrý den! Takhle zním, když čtu váš text nahlas.',
  da: 'Hej! Sådan lyder jeg, når jeg læser din tekst højt.',
  de: 'Hallo! So klinge ich, wenn ich Ihren Text vorlese.',
  el: 'Γεια σας! Έτσι ακούγομαι όταν διαβάζω δυνατά το κείμενό σας.',
  es: '¡Hola! Así sueno cuando leo tu texto en voz alta.',
  fa: 'سلام! وقتی متن شما را بلند می‌خوانم، صدایم این‌گونه است.',
  fi: 'Hei! Tältä kuulostan, kun luen tekstisi ääneen.',
  fr: 'Bonjour ! Voici ma voix quand je lis votre texte à voix haute.',
  hi: 'नमस्ते! जब मैं आपका पाठ ज़ोर से पढ़ती हूँ, तो मेरी आवाज़ ऐसी लगती है।',
  hu: 'Szia! Így hangzom, amikor felolvasom a szövegedet.',
  is: 'Halló! Svona hljóma ég þegar ég les textann þinn upphátt.',
  it: 'Ciao! Ecco come suono quando leggo il tuo testo ad alta voce.',
  ja: 'こんにちは。これが、あなたの文章を読み上げるときの私の声です。',
  lv: 'Sveiki! Šādi es skanu, kad skaļi lasu jūsu tekstu.',
  nl: 'Hallo! Zo klink ik wanneer ik je tekst voorlees.',
  no: 'Hei! Slik høres jeg ut når jeg leser teksten din høyt.',
  nb: 'Hei! Slik høres jeg ut når jeg leser teksten din høyt.',
  pl: 'Cześć! Tak brzmię, gdy czytam twój tekst na głos.',
  pt: 'Olá! É assim que eu soo quando leio o seu texto em voz alta.',
  ro: 'Bună ziua! Așa sun când vă citesc textul cu voce tare.',
  ru: 'Здравствуйте! Вот так звучит мой голос, когда я читаю ваш текст вслух.',
  sk: 'Dobrý deň! Takto znie môj hlas, keď čítam váš text nahlas.',
  sl: 'Pozdravljeni! Tako zvenim, ko na glas berem vaše besedilo.',
  sv: 'Hej! Så här låter jag när jag läser din text högt.',
  uk: 'Привіт! Ось так звучить мій голос, коли я читаю ваш текст уголос.',
  vi: 'Xin chào! Đây là giọng của tôi khi đọc to văn bản của bạn.',
  zh: '你好！这是我朗读你的文字时的声音。',
};

/**
 * A short sentence in the language of `languageCode` (its primary subtag), else in English.
 *
 * @example sampleSentence('de-DE') // 'Hallo! So klinge ich, wenn ich Ihren Text vorlese.'
 */
export function sampleSentence(languageCode: string): string {
  return SAMPLES[languageCode.split('-')[0].toLowerCase()] ?? SAMPLES.en;
}
