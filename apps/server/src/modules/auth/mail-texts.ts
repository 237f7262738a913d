/**
 * The password-reset email in each interface language (docs/web-app.md#languages: en, de, fr, es, zh; en
 * is the fallback).
 */
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@sheaf/shared';

interface ResetMail {
  subject: string;
  text: (link: string, name: string) => string;
}

const RESET_MAIL: Record<Language, ResetMail> = {
  en: {
    subject: 'Reset your Sheaf password',
    text: (link, name) => `Hello ${name},

someone (hopefully you) asked to reset the password of your Sheaf account.
Open this link to choose a new password. It works once and for one hour:

${link}

If you did not ask for this, ignore this email: your password stays as it is.

The Sheaf team
`,
  },
  de: {
    subject: 'Setzen Sie Ihr Sheaf-Passwort zurück',
    text: (link, name) => `Hallo ${name},

jemand (hoffentlich Sie) hat das Zurücksetzen des Passworts Ihres Sheaf-Kontos angefordert.
Öffnen Sie diesen Link, um ein neues Passwort zu wählen. Er gilt einmal und eine Stunde lang:

${link}

Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.

Ihr Sheaf-Team
`,
  },
  fr: {
    subject: 'Réinitialisez votre mot de passe Sheaf',
    text: (link, name) => `Bonjour ${name},

quelqu'un (vous, espérons-le) a demandé la réinitialisation du mot de passe de votre compte Sheaf.
Ouvrez ce lien pour choisir un nouveau mot de passe. Il ne sert qu'une fois et reste valable une heure :

${link}

Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : votre mot de passe ne change pas.

L'équipe Sheaf
`,
  },
  es: {
    subject: 'Restablece tu contraseña de Sheaf',
    text: (link, name) => `Hola, ${name}:

alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta de Sheaf.
Abre este enlace para elegir una contraseña nueva. Funciona una sola vez y durante una hora:

${link}

Si no lo has pedido tú, ignora este correo: tu contraseña no cambia.

El equipo de Sheaf
`,
  },
  zh: {
    subject: '重置您的 Sheaf 密码',
    text: (link, name) => `${name}，您好：

有人（希望是您本人）请求重置您的 Sheaf 账户密码。
请打开以下链接设置新密码。该链接只能使用一次，有效期为一小时：

${link}

如果这不是您本人的请求，请忽略此邮件，您的密码不会改变。

Sheaf 团队
`,
  },
};

export function resetPasswordMail(language: string, link: string, name: string): { subject: string; text: string } {
  const lang: Language = (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : FALLBACK_LANGUAGE;
  const mail = RESET_MAIL[lang];
  return { subject: mail.subject, text: mail.text(link, name) };
}
