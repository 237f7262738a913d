/**
 * The add-sender dialog (docs/email.md#adding-a-sender): step 0 choose the method, 1 add the sender, 2
 * verify it. Spoof and smtp senders are checked at once when added (a code is mailed / the SMTP login is
 * tried); domain senders get DNS records to create. Opened with `reopen`, it starts at step 2 for
 * a sender added earlier. Closing resets it to step 0 after 100 ms (once the dialog has faded out).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Step, StepLabel, Stepper } from '@mui/material';
import { DEFAULT_SENDER_SUBDOMAIN, SENDER_METHODS, SMTP_DEFAULT_PORT, type CreateSender, type Sender, type SenderMethod } from '@sheaf/shared';
import { api, ApiError } from '../../api/client.ts';
import { configQuery } from '../../api/routeQuery.ts';
import { translateCode } from '../../i18n/errors.ts';
import DomainVerify from './DomainVerify.tsx';
import MethodStep from './MethodStep.tsx';
import SenderFormStep from './SenderFormStep.tsx';
import SmtpVerify, { type SmtpState } from './SmtpVerify.tsx';
import SpoofVerify from './SpoofVerify.tsx';
import { firstErrorField, methodAvailability, parsePort, validateSenderForm, type SenderField, type SenderFormValues } from './senderRules.ts';
import { codeFailureText, senderFailure, smtpFailureText } from './useSenderErrors.ts';
import { SENDERS_KEY, senderKey, useEdition, usePlan, useSenders, useSetSenders } from './useSenders.ts';

/** docs/limits.md#timing-in-the-web-app: the dialog resets this long after it closed. */
export const SENDER_DIALOG_RESET_MS = 100;
const STEPS = ['method', 'details', 'verify'] as const;

const EMPTY: SenderFormValues = { email: '', identifier: '', subdomain: DEFAULT_SENDER_SUBDOMAIN, server: '', port: String(SMTP_DEFAULT_PORT), username: '', password: '' };

const valuesOf = (sender: Sender): SenderFormValues => ({
  ...EMPTY,
  email: sender.email,
  identifier: sender.identifier ?? '',
  subdomain: sender.subdomain ?? DEFAULT_SENDER_SUBDOMAIN,
  server: sender.server ?? '',
  port: String(sender.port ?? SMTP_DEFAULT_PORT),
  username: sender.username ?? '',
});

const smtpStateOf = (sender: Sender): SmtpState => (sender.isVerified ? 'verified' : sender.lastError ? 'error' : 'pending');

function createBody(method: SenderMethod, values: SenderFormValues): CreateSender {
  if (method === 'spoof') return { method, email: values.email, identifier: values.identifier };
  if (method === 'domain') return { method, email: values.email, subdomain: values.subdomain };
  return { method, email: values.email, server: values.server, port: parsePort(values.port) ?? values.port, username: values.username, password: values.password };
}

export interface AddSenderDialogProps {
  open: boolean;
  onClose: () => void;
  /** Open at the verify step for this sender (an unverified domain or smtp sender). */
  reopen?: Sender | null;
  /** A sender was added or verified (the picker selects it). */
  onSaved?: (sender: Sender) => void;
}

export default function AddSenderDialog({ open, onClose, reopen = null, onSaved }: AddSenderDialogProps) {
  const { t } = useTranslation(['senders', 'errors']);
  const plan = usePlan();
  const edition = useEdition();
  const senders = useSenders(open).data ?? [];
  const setSenders = useSetSenders();
  const queryClient = useQueryClient();
  const config = useQuery(configQuery());
  const [step, setStep] = useState(0);
  const [chosen, setChosen] = useState<SenderMethod | null>(null);
  const [values, setValues] = useState<SenderFormValues>(EMPTY);
  const [touched, setTouched] = useState<ReadonlySet<SenderField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<SenderField, string>>>({});
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sender, setSender] = useState<Sender | null>(null);
  const [editing, setEditing] = useState(false);
  const [smtpState, setSmtpState] = useState<SmtpState>('pending');
  const [smtpError, setSmtpError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const fieldRefs = useRef<Partial<Record<SenderField, HTMLInputElement | null>>>({});

  const firstAllowed = SENDER_METHODS.find((method) => methodAvailability(method, plan, edition).allowed) ?? null;
  const method = chosen ?? firstAllowed;
  const methodAllowed = method !== null && methodAvailability(method, plan, edition).allowed;

  // Domain senders: GET /senders/:id looks the records up again (the re-check button refetches it).
  const domain = useQuery({
    queryKey: senderKey(sender?.id ?? ''),
    queryFn: ({ signal }) => api.call('getSender', { params: { senderId: sender!.id }, signal }),
    enabled: open && step === 2 && sender?.method === 'domain',
    // Just answered by the server: fresh for staleTime from when the query starts.
    initialData: sender ?? undefined,
    staleTime: 30_000,
  });
  const current = sender?.method === 'domain' && domain.data ? domain.data : sender;

  // Closed: back to step 0 once the dialog has faded out.
  useEffect(() => {
    if (open) return undefined;
    const timer = setTimeout(() => {
      setStep(0); setChosen(null); setValues(EMPTY); setTouched(new Set()); setSubmitted(false); setServerErrors({}); setGeneralError(null);
      setSender(null); setEditing(false); setSmtpState('pending'); setSmtpError(null); setCode(''); setCodeError(null);
    }, SENDER_DIALOG_RESET_MS);
    return () => clearTimeout(timer);
  }, [open]);

  // Opened for a sender added earlier: straight to its verify step.
  const [openedFor, setOpenedFor] = useState<{ open: boolean; reopen: Sender | null }>({ open: false, reopen: null });
  if (openedFor.open !== open || openedFor.reopen !== reopen) {
    setOpenedFor({ open, reopen });
    if (open && reopen) {
      setStep(2); setChosen(reopen.method); setSender(reopen); setValues(valuesOf(reopen));
      setSmtpState(smtpStateOf(reopen)); setSmtpError(reopen.lastError);
    }
  }

  /** Re-check of a domain sender's records; one that turns verified is saved (the picker selects it). */
  async function recheckDomain() {
    const { data } = await domain.refetch();
    if (data?.isVerified && sender && !sender.isVerified) saved(data);
  }

  const errors = method ? validateSenderForm(method, values, senders, editing ? sender?.id : undefined) : {};
  const shownErrors = Object.fromEntries(Object.entries(errors).filter(([field]) => submitted || touched.has(field as SenderField)));

  function change(field: SenderField, value: string) {
    setValues((old) => ({ ...old, [field]: value }));
    setServerErrors((old) => ({ ...old, [field]: undefined }));
    setGeneralError(null);
  }

  function saved(next: Sender, list?: Sender[]) {
    if (list) setSenders.list(list);
    else setSenders.one(next);
    setSender(next);
    onSaved?.(next);
  }

  async function runSmtpTest(body: { server?: string; port?: number | string; username?: string; password?: string } = {}) {
    if (!sender) return;
    setSmtpState('verifying');
    setSmtpError(null);
    try {
      const result = await api.call('verifySender', { body: { id: sender.id, ...body } });
      saved(result.sender, result.senders);
      setSmtpState(smtpStateOf(result.sender));
      setSmtpError(result.sender.isVerified ? null : result.sender.lastError ?? translateCode('sender/smtp-failed', undefined, t));
    } catch (error) {
      setSmtpState('error');
      setSmtpError(smtpFailureText(error, t));
      // The server kept the reason as the sender's lastError.
      void queryClient.invalidateQueries({ queryKey: SENDERS_KEY });
    }
  }

  async function submitDetails() {
    setSubmitted(true);
    const first = firstErrorField(errors);
    if (!method || first) {
      if (first) fieldRefs.current[first]?.focus();
      return;
    }
    setBusy(true);
    setGeneralError(null);
    try {
      if (editing && sender) {
        // Corrected connection fields are tested and saved by the verify call.
        setStep(2);
        await runSmtpTest({ server: values.server, port: parsePort(values.port) ?? values.port, username: values.username, ...(values.password ? { password: values.password } : {}) });
        setEditing(false);
        return;
      }
      const result = await api.call('createSender', { body: createBody(method, values) });
      saved(result.sender, result.senders);
      setSmtpState(smtpStateOf(result.sender));
      setSmtpError(result.sender.lastError);
      setValues((old) => ({ ...old, password: '' }));
      setStep(2);
    } catch (error) {
      // An smtp sender whose login test failed is kept unverified: its verify step shows why.
      const keptId = error instanceof ApiError && (error.code === 'sender/smtp-failed' || error.code === 'sender/smtp-rejected') ? error.params.senderId : undefined;
      if (typeof keptId === 'string') {
        const kept = await api.call('getSender', { params: { senderId: keptId } }).catch(() => null);
        if (kept) {
          saved(kept);
          setSmtpState('error');
          setSmtpError(smtpFailureText(error, t));
          setValues((old) => ({ ...old, password: '' }));
          setStep(2);
          return;
        }
      }
      const failure = senderFailure(error, t);
      setServerErrors(failure.fields);
      setGeneralError(failure.general);
      const field = firstErrorField(failure.fields as Record<SenderField, never>);
      if (field) fieldRefs.current[field]?.focus();
    } finally {
      setBusy(false);
    }
  }

  async function submitCode(value: string) {
    if (!sender || busy) return;
    setBusy(true);
    setCodeError(null);
    try {
      const result = await api.call('verifySender', { body: { id: sender.id, code: value } });
      saved(result.sender, result.senders);
      if (!result.sender.isVerified) {
        setCode('');
        setCodeError(translateCode('sender/invalid-code', undefined, t));
      }
    } catch (error) {
      setCode('');
      setCodeError(codeFailureText(error, t));
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (step === 0 && methodAllowed) setStep(1);
    else if (step === 1) void submitDetails();
    else if (step === 2 && current?.method === 'spoof' && code.length === 4) void submitCode(code);
    else if (step === 2 && current?.method === 'smtp' && !current.isVerified) void runSmtpTest();
    else if (step === 2 && current?.method === 'domain' && !current.isVerified) void recheckDomain();
  }

  const close = () => {
    if (!busy && smtpState !== 'verifying') onClose();
  };
  const verified = current?.isVerified === true;
  const closeLabel = step === 2 && (verified || current?.method === 'domain') ? t('dialog.close') : t('dialog.cancel');

  function primary() {
    if (step === 0) return <Button type="submit" variant="contained" disabled={!methodAllowed}>{t('dialog.next')}</Button>;
    if (step === 1) {
      return (
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}>
          {editing ? t('dialog.saveAndTest') : t('dialog.add')}
        </Button>
      );
    }
    if (!current || verified) return null;
    if (current.method === 'spoof') return <Button type="submit" variant="contained" disabled={busy || code.length !== 4}>{t('dialog.verify')}</Button>;
    if (current.method === 'domain') {
      return (
        <Button type="submit" variant="contained" disabled={domain.isFetching} startIcon={domain.isFetching ? <CircularProgress size={16} color="inherit" /> : undefined}>
          {t('dialog.recheck')}
        </Button>
      );
    }
    return <Button type="submit" variant="contained" disabled={smtpState === 'verifying'}>{smtpState === 'error' ? t('dialog.tryAgain') : t('dialog.verify')}</Button>;
  }

  return (
    <Dialog open={open} onClose={close} maxWidth={step === 2 && current?.method === 'domain' ? 'md' : 'sm'} fullWidth aria-labelledby="add-sender-title">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle id="add-sender-title">{reopen ? t('dialog.verifyTitle') : t('dialog.title')}</DialogTitle>
        <DialogContent>
          <Stepper activeStep={step} sx={{ mb: 3 }} aria-label={t('dialog.stepsLabel')}>
            {STEPS.map((name, index) => (
              <Step key={name} completed={index < step || (index === 2 && verified)}><StepLabel>{t(`dialog.step.${name}`)}</StepLabel></Step>
            ))}
          </Stepper>
          {step === 0 && <MethodStep value={method} onChange={setChosen} plan={plan} edition={edition} />}
          {step === 1 && method && (
            <SenderFormStep
              method={method}
              values={values}
              onChange={change}
              onBlur={(field) => setTouched((old) => new Set(old).add(field))}
              errors={shownErrors}
              serverErrors={serverErrors}
              generalError={generalError}
              editing={editing}
              fieldRefs={fieldRefs}
              disabled={busy}
            />
          )}
          {step === 2 && current?.method === 'spoof' && (
            <SpoofVerify sender={current} code={code} onCodeChange={(value) => { setCode(value); setCodeError(null); }} onSubmit={(value) => void submitCode(value)} error={codeError} busy={busy} mailOutbox={config.data?.mailOutbox ?? false} />
          )}
          {step === 2 && current?.method === 'domain' && <DomainVerify sender={current} checking={domain.isFetching} />}
          {step === 2 && current?.method === 'smtp' && <SmtpVerify sender={current} state={smtpState} error={smtpError} />}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={busy || smtpState === 'verifying'}>{closeLabel}</Button>
          {step === 1 && !editing && <Button onClick={() => setStep(0)} disabled={busy}>{t('dialog.back')}</Button>}
          {step === 2 && current?.method === 'smtp' && (
            <Button onClick={() => { setEditing(true); setSubmitted(false); setTouched(new Set()); setStep(1); }} disabled={smtpState === 'verifying'}>
              {t('dialog.edit')}
            </Button>
          )}
          {primary()}
        </DialogActions>
      </Box>
    </Dialog>
  );
}
