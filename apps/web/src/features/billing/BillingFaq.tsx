/** The questions people ask before paying (docs/billing.md#the-billing-pages). */
import { Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import Faq, { type FaqItem } from './Faq.tsx';

const ITEMS = ['cancel', 'refund', 'proration', 'vat', 'downgrade', 'paymentMethods', 'quota', 'offline'] as const;

export default function BillingFaq({ refundDays }: { refundDays: number }) {
  const { t } = useTranslation('billing');
  const items: FaqItem[] = ITEMS.map((id) => ({
    id,
    question: t(`faq.billing.${id}.q`),
    answer:
      id === 'offline'
        ? <Trans t={t} i18nKey="faq.billing.offline.a" components={{ offline: <Link component={RouterLink} to="/offline" /> }} />
        : t(`faq.billing.${id}.a`, { days: refundDays }),
  }));
  return <Faq title={t('faq.title')} items={items} />;
}
