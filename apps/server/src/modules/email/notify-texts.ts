/** The end-of-mailing summary mailed to the owner, in each interface language (en is the fallback). */
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@sheaf/shared';

export interface MailingSummary {
  name: string;
  outcome: 'completed' | 'cancelled' | 'error';
  total: number;
  /** Accepted or further (delivered, opened, clicked). */
  sent: number;
  failed: number;
  bounced: number;
  cancelled: number;
  reportUrl: string;
}

type Texts = { subject: (s: MailingSummary) => string; text: (s: MailingSummary) => string };

const OUTCOME: Record<Language, Record<MailingSummary['outcome'], string>> = {
  en: { completed: 'is finished', cancelled: 'was cancelled', error: 'stopped with an error' },
  de: { completed: 'ist abgeschlossen', cancelled: 'wurde abgebrochen', error: 'wurde wegen eines Fehlers angehalten' },
  fr: { completed: 'est terminé', cancelled: 'a été annulé', error: "s'est arrêté sur une erreur" },
  es: { completed: 'ha terminado', cancelled: 'se ha cancelado', error: 'se detuvo por un error' },
  zh: { completed: '已完成', cancelled: '已取消', error: '因错误而停止' },
};

const TEXTS: Record<Language, Texts> = {
  en: {
    subject: (s) => `Your mailing "${s.name}" ${OUTCOME.en[s.outcome]}`,
    text: (s) => `Your mailing "${s.name}" ${OUTCOME.en[s.outcome]}.\n\nMessages: ${s.total}\nSent: ${s.sent}\nFailed: ${s.failed}\nBounced: ${s.bounced}\nCancelled: ${s.cancelled}\n\nThe report: ${s.reportUrl}\n\nThe Sheaf team\n`,
  },
  de: {
    subject: (s) => `Ihr Versand „${s.name}“ ${OUTCOME.de[s.outcome]}`,
    text: (s) => `Ihr Versand „${s.name}“ ${OUTCOME.de[s.outcome]}.\n\nNachrichten: ${s.total}\nGesendet: ${s.sent}\nFehlgeschlagen: ${s.failed}\nUnzustellbar: ${s.bounced}\nAbgebrochen: ${s.cancelled}\n\nZum Bericht: ${s.reportUrl}\n\nIhr Sheaf-Team\n`,
  },
  fr: {
    subject: (s) => `Votre envoi « ${s.name} » ${OUTCOME.fr[s.outcome]}`,
    text: (s) => `Votre envoi « ${s.name} » ${OUTCOME.fr[s.outcome]}.\n\nMessages : ${s.total}\nEnvoyés : ${s.sent}\nÉchecs : ${s.failed}\nRetours : ${s.bounced}\nAnnulés : ${s.cancelled}\n\nLe rapport : ${s.reportUrl}\n\nL'équipe Sheaf\n`,
  },
  es: {
    subject: (s) => `Su envío «${s.name}» ${OUTCOME.es[s.outcome]}`,
    text: (s) => `Su envío «${s.name}» ${OUTCOME.es[s.outcome]}.\n\nMensajes: ${s.total}\nEnviados: ${s.sent}\nFallidos: ${s.failed}\nRebotados: ${s.bounced}\nCancelados: ${s.cancelled}\n\nEl informe: ${s.reportUrl}\n\nEl equipo de Sheaf\n`,
  },
  zh: {
    subject: (s) => `您的邮件发送“${s.name}”${OUTCOME.zh[s.outcome]}`,
    text: (s) => `您的邮件发送“${s.name}”${OUTCOME.zh[s.outcome]}。\n\n邮件总数：${s.total}\n已发送：${s.sent}\n失败：${s.failed}\n退回：${s.bounced}\n已取消：${s.cancelled}\n\n报告：${s.reportUrl}\n\nSheaf 团队\n`,
  },
};

export function summaryMail(language: string, summary: MailingSummary): { subject: string; text: string } {
  const texts = TEXTS[(LANGUAGES as readonly string[]).includes(language) ? (language as Language) : FALLBACK_LANGUAGE];
  return { subject: texts.subject(summary), text: texts.text(summary) };
}
