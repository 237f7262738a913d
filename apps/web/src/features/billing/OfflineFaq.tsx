/**
 * The 7 questions of /offline; three of them (invoices, payment method, renewal) lead to Stripe's
 * billing portal: a button for a signed-in user (POST /billing/portal), a sign-in link for a visitor.
 */
import { Box, Button, CircularProgress, Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Faq, { type FaqItem } from './Faq.tsx';
import { useBillingPortal } from './useBillingErrors.ts';

const ITEMS = ['what', 'key', 'computers', 'trial', 'invoices', 'paymentMethod', 'renewal'] as const;
const PORTAL_ITEMS = new Set<string>(['invoices', 'paymentMethod', 'renewal']);
/** Where a visitor signs in to reach the portal (the public-route guard follows ?next=). */
export const PORTAL_SIGN_IN = '/login?next=/billing';

function PortalLink({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation('billing');
  const portal = useBillingPortal();
  if (!signedIn) return <Link component={RouterLink} to={PORTAL_SIGN_IN}>{t('offline.faq.portalSignIn')}</Link>;
  return (
    <Button variant="outlined" size="small" onClick={portal.open} disabled={portal.busy} startIcon={portal.busy ? <CircularProgress size={14} color="inherit" /> : undefined}>
      {t('offline.faq.portalOpen')}
    </Button>
  );
}

export default function OfflineFaq({ signedIn, trialDocuments }: { signedIn: boolean; trialDocuments: number }) {
  const { t } = useTranslation('billing');
  const items: FaqItem[] = ITEMS.map((id) => ({
    id,
    question: t(`offline.faq.${id}.q`),
    answer: (
      <>
        {t(`offline.faq.${id}.a`, { documents: trialDocuments })}
        {PORTAL_ITEMS.has(id) && <Box sx={{ mt: 1.5 }}><PortalLink signedIn={signedIn} /></Box>}
      </>
    ),
  }));
  return <Faq title={t('faq.title')} items={items} />;
}
