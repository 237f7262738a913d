/**
 * Buying a subscription (docs/billing.md#checkout): the billing address (saved with PUT
 * /billing/address, the server's field errors under each field), the two consent ticks (an error
 * under each unticked one and no request), then POST /billing/checkout and off to Stripe Checkout.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BillingAddress, BillingCycle, PlanInfo, SubscriptionPlan } from '@sheaf/shared';
import { ApiError } from '../../api/client.ts';
import { translateCode, translateFields } from '../../i18n/errors.ts';
import AddressFields from './AddressFields.tsx';
import { ADDRESS_CODE_FIELDS, addressErrors, addressValues, guessCountry, type AddressField, type AddressValues } from './address.ts';
import { checkoutMutation, saveAddressMutation } from './api.ts';
import ConsentChecks from './ConsentChecks.tsx';
import { consentBody, consentErrors, NO_CONSENT, type Consent, type ConsentErrors } from './consent.ts';
import { formatUsd, priceLine } from './pricing.ts';
import { goTo, useBillingFailure } from './useBillingErrors.ts';

interface Props {
  plan: PlanInfo & { plan: SubscriptionPlan };
  cycle: BillingCycle;
  savedAddress: BillingAddress | null;
  onClose: () => void;
}

const browserLanguages = () => (typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));

export default function CheckoutDialog({ plan, cycle, savedAddress, onClose }: Props) {
  const { t, i18n } = useTranslation(['billing', 'errors']);
  const queryClient = useQueryClient();
  const fail = useBillingFailure();
  const [address, setAddress] = useState<AddressValues>(() => addressValues(savedAddress, guessCountry(browserLanguages())));
  const [consent, setConsent] = useState<Consent>(NO_CONSENT);
  const [addressProblems, setAddressProblems] = useState<Partial<Record<AddressField, string>>>({});
  const [consentProblems, setConsentProblems] = useState<ConsentErrors>({});
  const saveAddress = useMutation(saveAddressMutation(queryClient));
  const checkout = useMutation(checkoutMutation());
  // Busy from the first request until the browser has left for Stripe.
  const busy = saveAddress.isPending || checkout.isPending || checkout.isSuccess;

  const price = plan.price ? priceLine(plan.price, cycle) : null;
  const planName = t(`billing:plan.names.${plan.plan}`);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = addressErrors(address);
    const unticked = consentErrors(consent);
    setAddressProblems(Object.fromEntries(Object.entries(missing).map(([field, code]) => [field, translateCode(code, undefined, t)])));
    setConsentProblems(unticked);
    const agreed = consentBody(consent);
    if (Object.keys(missing).length > 0 || !agreed) return;
    try {
      await saveAddress.mutateAsync(address);
    } catch (error) {
      const fields = translateFields(error, t) as Partial<Record<AddressField, string>>;
      const field = error instanceof ApiError ? ADDRESS_CODE_FIELDS[error.code] : undefined;
      if (field && error instanceof ApiError) fields[field] = translateCode(error.code, error.params, t);
      setAddressProblems(fields);
      if (Object.keys(fields).length === 0) fail(error);
      return;
    }
    checkout.mutate({ plan: plan.plan, cycle, consent: agreed }, { onSuccess: ({ url }) => goTo(url), onError: fail });
  };

  const change = (field: AddressField, value: string) => {
    setAddress((current) => ({ ...current, [field]: value }));
    setAddressProblems(({ [field]: _gone, ...rest }) => rest);
  };
  const changeConsent = (next: Consent) => {
    setConsent(next);
    setConsentProblems((current) => Object.fromEntries(Object.entries(current).filter(([name]) => !next[name as keyof Consent])));
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby="checkout-title"
      maxWidth="sm"
      fullWidth
      // The paper is the form: the content scrolls between the title and the buttons, which stay in view.
      slotProps={{ paper: { component: 'form', noValidate: true, onSubmit: submit } as object }}
    >
      <DialogTitle id="checkout-title">{t('billing:checkout.title', { plan: planName })}</DialogTitle>
      <DialogContent>
        {price && (
          <Alert severity="info" icon={false} sx={{ mb: 2 }}>
            {price.billedYearly === null
              ? t('billing:checkout.summaryMonthly', { plan: planName, price: formatUsd(price.perMonth, i18n.language) })
              : t('billing:checkout.summaryYearly', { plan: planName, price: formatUsd(price.perMonth, i18n.language), total: formatUsd(price.billedYearly, i18n.language) })}
            {' '}{t('billing:notes.vat')}
          </Alert>
        )}
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>{t('billing:address.title')}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>{t('billing:address.intro')}</Typography>
        <AddressFields values={address} errors={addressProblems} onChange={change} disabled={busy} />
        <Box sx={{ mt: 3 }}>
          <ConsentChecks idPrefix="checkout" consent={consent} errors={consentProblems} onChange={changeConsent} disabled={busy} />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>{t('billing:checkout.stripeNote')}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>{t('billing:actions.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}>
          {t('billing:checkout.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
