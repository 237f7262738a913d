/**
 * The email that delivers an offline licence key (docs/licences.md#purchase-and-the-licence-email), in each interface
 * language (en, de, fr, es, zh; en is the fallback): the key in groups of five, the machine limit, the
 * expiry and how to enter the key in the desktop edition.
 */
import { FALLBACK_LANGUAGE, LANGUAGES, formatLicenceKey, type Language } from '@sheaf/shared';

export interface LicenceMailFacts {
  key: string;
  machineLimit: number;
  expiresAt: Date;
}

interface LicenceMail {
  subject: string;
  locale: string;
  text: (key: string, machines: number, expiry: string) => string;
}

const LICENCE_MAIL: Record<Language, LicenceMail> = {
  en: {
    subject: 'Your Sheaf Offline licence key',
    locale: 'en-GB',
    text: (key, machines, expiry) => `Hello,

thank you for buying Sheaf Offline. Your licence key is:

    ${key}

It can be activated on ${machines === 1 ? '1 computer' : `${machines} computers`} and is valid until ${expiry}.
It is renewed with your subscription; you do not need a new key.

To enter it in Sheaf Desktop: open the user menu, choose "Manage licence", type or paste the key
(dashes and spaces are optional) and confirm. The computer needs an internet connection once, to
activate the key; after that Sheaf Desktop works offline.

Keep this email: you will need the key to activate Sheaf Desktop on another computer.

The Sheaf team
`,
  },
  de: {
    subject: 'Ihr Lizenzschlüssel für Sheaf Offline',
    locale: 'de-DE',
    text: (key, machines, expiry) => `Hallo,

vielen Dank für Ihren Kauf von Sheaf Offline. Ihr Lizenzschlüssel lautet:

    ${key}

Er kann auf ${machines === 1 ? '1 Computer' : `${machines} Computern`} aktiviert werden und gilt bis zum ${expiry}.
Er verlängert sich mit Ihrem Abonnement; Sie brauchen keinen neuen Schlüssel.

So geben Sie ihn in Sheaf Desktop ein: Öffnen Sie das Benutzermenü, wählen Sie „Lizenz verwalten“,
tippen oder fügen Sie den Schlüssel ein (Bindestriche und Leerzeichen sind optional) und bestätigen Sie.
Der Computer braucht einmal eine Internetverbindung, um den Schlüssel zu aktivieren; danach arbeitet
Sheaf Desktop offline.

Bewahren Sie diese E-Mail auf: Sie brauchen den Schlüssel, um Sheaf Desktop auf einem weiteren
Computer zu aktivieren.

Ihr Sheaf-Team
`,
  },
  fr: {
    subject: 'Votre clé de licence Sheaf Offline',
    locale: 'fr-FR',
    text: (key, machines, expiry) => `Bonjour,

merci d'avoir acheté Sheaf Offline. Votre clé de licence est :

    ${key}

Elle peut être activée sur ${machines === 1 ? '1 ordinateur' : `${machines} ordinateurs`} et reste valable jusqu'au ${expiry}.
Elle est renouvelée avec votre abonnement ; vous n'avez pas besoin d'une nouvelle clé.

Pour la saisir dans Sheaf Desktop : ouvrez le menu utilisateur, choisissez « Gérer la licence »,
tapez ou collez la clé (les tirets et les espaces sont facultatifs) et confirmez. L'ordinateur a besoin
d'une connexion Internet une seule fois, pour activer la clé ; ensuite Sheaf Desktop fonctionne hors ligne.

Conservez cet e-mail : vous aurez besoin de la clé pour activer Sheaf Desktop sur un autre ordinateur.

L'équipe Sheaf
`,
  },
  es: {
    subject: 'Tu clave de licencia de Sheaf Offline',
    locale: 'es-ES',
    text: (key, machines, expiry) => `Hola:

gracias por comprar Sheaf Offline. Tu clave de licencia es:

    ${key}

Se puede activar en ${machines === 1 ? '1 ordenador' : `${machines} ordenadores`} y es válida hasta el ${expiry}.
Se renueva con tu suscripción; no necesitas una clave nueva.

Para introducirla en Sheaf Desktop: abre el menú de usuario, elige «Gestionar licencia», escribe o pega
la clave (los guiones y los espacios son opcionales) y confirma. El ordenador necesita conexión a
Internet una sola vez, para activar la clave; después Sheaf Desktop funciona sin conexión.

Guarda este correo: necesitarás la clave para activar Sheaf Desktop en otro ordenador.

El equipo de Sheaf
`,
  },
  zh: {
    subject: '您的 Sheaf Offline 许可证密钥',
    locale: 'zh-CN',
    text: (key, machines, expiry) => `您好：

感谢您购买 Sheaf Offline。您的许可证密钥是：

    ${key}

它可以在 ${machines} 台电脑上激活，有效期至 ${expiry}。
它会随您的订阅自动续期，您无需新的密钥。

在 Sheaf Desktop 中输入密钥：打开用户菜单，选择“管理许可证”，输入或粘贴密钥（短横线和空格可有可无），然后确认。
激活密钥时电脑需要联网一次；之后 Sheaf Desktop 可离线使用。

请保留此邮件：在其他电脑上激活 Sheaf Desktop 时需要此密钥。

Sheaf 团队
`,
  },
};

export function licenceMail(language: string, facts: LicenceMailFacts): { subject: string; text: string } {
  const lang: Language = (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : FALLBACK_LANGUAGE;
  const mail = LICENCE_MAIL[lang];
  const expiry = new Intl.DateTimeFormat(mail.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(facts.expiresAt);
  return { subject: mail.subject, text: mail.text(formatLicenceKey(facts.key), facts.machineLimit, expiry) };
}
