/**
 * Step 1 of the add-sender dialog: the fields of the chosen method with live checks (shown once a
 * field was left or the form submitted) and the server's field errors under their fields.
 */
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, InputAdornment, Stack, TextField } from '@mui/material';
import { DEFAULT_SENDER_SUBDOMAIN, PRODUCT_NAME, type SenderMethod } from '@sheaf/shared';
import { translateCode } from '../../i18n/errors.ts';
import type { SenderField, SenderFieldErrors, SenderFormValues } from './senderRules.ts';

interface Props {
  method: SenderMethod;
  values: SenderFormValues;
  onChange: (field: SenderField, value: string) => void;
  onBlur: (field: SenderField) => void;
  /** Client checks of the fields to show now. */
  errors: SenderFieldErrors;
  /** Translated server errors by field; they win over the client's. */
  serverErrors: Partial<Record<SenderField, string>>;
  generalError: string | null;
  /** An existing smtp sender is edited: the password may stay empty (the stored one is kept). */
  editing: boolean;
  fieldRefs: RefObject<Partial<Record<SenderField, HTMLInputElement | null>>>;
  disabled: boolean;
}

export default function SenderFormStep({ method, values, onChange, onBlur, errors, serverErrors, generalError, editing, fieldRefs, disabled }: Props) {
  const { t } = useTranslation(['senders', 'errors']);
  const message = (field: SenderField): string | undefined => {
    if (serverErrors[field]) return serverErrors[field];
    const code = errors[field];
    return code ? translateCode(code, undefined, t) : undefined;
  };
  const field = (name: SenderField, extra: { type?: string; helper?: string; autoComplete?: string; inputMode?: 'numeric'; end?: string; readOnly?: boolean } = {}) => (
    <TextField
      key={name}
      label={t(`field.${name}`)}
      value={values[name]}
      onChange={(event) => onChange(name, name === 'port' ? event.target.value.replace(/\D/g, '') : event.target.value)}
      onBlur={() => onBlur(name)}
      error={message(name) !== undefined}
      helperText={message(name) ?? extra.helper ?? ' '}
      type={extra.type ?? 'text'}
      autoComplete={extra.autoComplete ?? 'off'}
      required={!(name === 'password' && editing)}
      disabled={disabled || extra.readOnly}
      inputRef={(element: HTMLInputElement | null) => {
        fieldRefs.current[name] = element;
      }}
      slotProps={{
        htmlInput: { inputMode: extra.inputMode, maxLength: name === 'port' ? 5 : undefined, 'data-testid': `sender-${name}` },
        input: extra.end ? { endAdornment: <InputAdornment position="end">{extra.end}</InputAdornment> } : undefined,
      }}
      fullWidth
    />
  );

  return (
    <Stack spacing={1}>
      {field('email', { type: 'email', autoComplete: 'email', helper: t(`field.emailHelp.${method}`), readOnly: editing })}
      {method === 'spoof' && field('identifier', { helper: t('field.identifierHelp') })}
      {method === 'domain' && field('subdomain', { helper: t('field.subdomainHelp', { default: DEFAULT_SENDER_SUBDOMAIN, product: PRODUCT_NAME }) })}
      {method === 'smtp' && (
        <>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <div style={{ flex: 3 }}>{field('server', { helper: t('field.serverHelp') })}</div>
            <div style={{ flex: 1 }}>{field('port', { inputMode: 'numeric', helper: t('field.portHelp') })}</div>
          </Stack>
          {field('username', { autoComplete: 'username' })}
          {field('password', { type: 'password', autoComplete: 'new-password', helper: editing ? t('field.passwordKeep') : undefined })}
        </>
      )}
      {generalError && <Alert severity="error">{generalError}</Alert>}
    </Stack>
  );
}
