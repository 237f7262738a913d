/**
 * The word lists the spam rules (spam-rules.ts) check against. Curated by hand from the phrases
 * content filters and deliverability guides flag most often; kept short on purpose: each entry is a
 * phrase legitimate business mail has little reason to use, so a hit means something.
 */

/** Trigger phrases per language, lower case. Latin-script phrases match as whole words; Chinese as substrings. */
export const TRIGGER_PHRASES: Record<'en' | 'de' | 'fr' | 'es' | 'zh', readonly string[]> = {
  en: [
    '100% free', '100% guaranteed', 'act now', 'apply now', 'as seen on', 'best price', 'buy now', 'call now', 'cash bonus',
    'claim your prize', 'click here', 'dear friend', 'double your money', 'earn extra cash', 'extra income',
    'free gift', 'free money', 'get paid', 'lowest price', 'make money fast', 'million dollars', 'miracle cure', 'no credit check',
    'no strings attached', 'once in a lifetime', 'order now', 'risk-free', 'risk free', 'this is not spam', 'viagra',
    'what are you waiting for', 'while supplies last', 'you are a winner', "you're a winner", 'work from home', 'you have been selected', 'you have won', "you've won",
  ],
  de: [
    '100% kostenlos', 'bargeld sofort', 'geld verdienen', 'jetzt bestellen', 'jetzt kaufen',
    'klicken sie hier', 'nebenverdienst', 'nur heute', 'risikofrei', 'schnell reich', 'sie haben gewonnen', 'sofort handeln', 'zeitlich begrenzt',
  ],
  fr: [
    '100% gratuit', 'achetez maintenant', 'argent facile', 'cliquez ici', 'commandez maintenant', 'vous êtes le gagnant',
    "gagnez de l'argent", 'offre limitée', 'offre exclusive', 'sans risque', 'vous avez gagné', 'vous avez été sélectionné',
  ],
  es: [
    '100% gratis', 'compre ahora', 'compra ahora', 'dinero fácil', 'usted es el ganador', 'gane dinero', 'haga clic aquí',
    'haz clic aquí', 'has ganado', 'oferta exclusiva', 'oferta limitada', 'sin riesgo', 'usted ha ganado', 'ha sido seleccionado',
  ],
  zh: ['免费领取', '点击这里', '恭喜您中奖', '限时抢购', '立即购买', '轻松赚钱', '日赚'],
};

/** Public URL shorteners: the real destination is hidden, which is why spammers (and filters) like them. */
export const URL_SHORTENERS: ReadonlySet<string> = new Set([
  'bit.ly', 'bitly.com', 'buff.ly', 'cutt.ly', 'goo.gl', 'is.gd', 'lnkd.in', 'ow.ly', 'rb.gy', 'rebrand.ly', 's.id', 'shorturl.at',
  't.co', 't.ly', 'tiny.cc', 'tinyurl.com', 'tr.im', 'v.gd', 'x.co', 'shorte.st', 'adf.ly', 'bl.ink', 'short.io', 'qrco.de',
]);

/**
 * Attachment types mail filters quarantine or strip: programs, scripts, shortcuts and installers run
 * when opened, and Office files with macros are the classic way malware arrives.
 */
export const RISKY_EXTENSIONS: ReadonlySet<string> = new Set([
  'exe', 'com', 'scr', 'pif', 'bat', 'cmd', 'msi', 'msp', 'js', 'jse', 'vbs', 'vbe', 'wsf', 'wsh', 'hta', 'ps1', 'jar', 'lnk', 'reg',
  'cpl', 'dll', 'iso', 'img', 'docm', 'dotm', 'xlsm', 'xltm', 'xlam', 'pptm', 'potm', 'ppsm',
]);

/** An opt-out hint in any of the five languages: unsubscribe, opt out, abmelden, se désinscrire, darse de baja, 退订... */
export const OPT_OUT = /unsubscrib|opt[\s-]?out|abmeld|abbestell|austragen|d[ée]sabonn|d[ée]sinscri|de baja|cancelar (?:la )?suscripci|退订|取消订阅/i;

/** Addresses and names nobody can answer. */
export const NO_REPLY = /\bno[\s._-]?reply\b|\bdo[\s._-]?not[\s._-]?reply\b|\bnoreply\b|\bdonotreply\b/i;
