/** The spoof sender's verification-code email in each interface language (en is the fallback). */
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@sheaf/shared';

interface CodeMailInput {
  code: string;
  /** The real address being proven (the mail goes there). */
  email: string;
  /** What recipients will see: "Identifier <local@mail-domain>". */
  display: string;
  minutes: number;
}

interface CodeMail {
  subject: (code: string) => string;
  text: (input: CodeMailInput) => string;
}

const CODE_MAIL: Record<Language, CodeMail> = {
  en: {
    subject: (code) => `${code} is your Sheaf sender verification code`,
    text: ({ code, email, display, minutes }) => `Hello,

to confirm that ${email} is yours and may send documents as
${display}, enter this code in Sheaf:

${code}

The code works for ${minutes} minutes. Replies to these mails will reach ${email}.
If you did not add this sender, ignore this email: nothing is sent in your name.

The Sheaf team
`,
  },
  de: {
    subject: (code) => `${code} ist Ihr Sheaf-Bestätigungscode für den Absender`,
    text: ({ code, email, display, minutes }) => `Hallo,

um zu bestätigen, dass ${email} Ihnen gehört und Dokumente als
${display} versenden darf, geben Sie diesen Code in Sheaf ein:

${code}

Der Code gilt ${minutes} Minuten. Antworten auf diese E-Mails gehen an ${email}.
Wenn Sie diesen Absender nicht hinzugefügt haben, ignorieren Sie diese E-Mail: In Ihrem Namen wird nichts versendet.

Ihr Sheaf-Team
`,
  },
  fr: {
    subject: (code) => `${code} est votre code de vérification d'expéditeur Sheaf`,
    text: ({ code, email, display, minutes }) => `Bonjour,

pour confirmer que l'adresse ${email} vous appartient et peut envoyer des documents en tant que
${display}, saisissez ce code dans Sheaf :

${code}

Le code est valable ${minutes} minutes. Les réponses à ces e-mails arriveront à ${email}.
Si vous n'avez pas ajouté cet expéditeur, ignorez cet e-mail : rien n'est envoyé en votre nom.

L'équipe Sheaf
`,
  },
  es: {
    subject: (code) => `${code} es tu código de verificación de remitente de Sheaf`,
    text: ({ code, email, display, minutes }) => `Hola:

para confirmar que ${email} es tuya y puede enviar documentos como
${display}, introduce este código en Sheaf:

${code}

El código es válido durante ${minutes} minutos. Las respuestas a estos correos llegarán a ${email}.
Si no has añadido este remitente, ignora este correo: no se envía nada en tu nombre.

El equipo de Sheaf
`,
  },
  zh: {
    subject: (code) => `${code} 是您的 Sheaf 发件人验证码`,
    text: ({ code, email, display, minutes }) => `您好：

为确认 ${email} 属于您，并可以用
${display} 的身份发送文档，请在 Sheaf 中输入以下验证码：

${code}

验证码在 ${minutes} 分钟内有效。对这些邮件的回复将发送到 ${email}。
如果您没有添加此发件人，请忽略此邮件：不会以您的名义发送任何内容。

Sheaf 团队
`,
  },
};

export function verificationCodeMail(language: string, input: CodeMailInput): { subject: string; text: string } {
  const lang: Language = (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : FALLBACK_LANGUAGE;
  const mail = CODE_MAIL[lang];
  return { subject: mail.subject(input.code), text: mail.text(input) };
}
