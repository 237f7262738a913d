/**
 * The email part of step 4 (docs/email.md#composing): the active switch (off and
 * disabled with an upgrade notice on the Free plan), the sender, from name, subject and rich-text
 * content with column tags, recipients / cc / bcc columns, reply-to, static attachments, the
 * recipients check, the spam score and a test email. Problems show under their fields.
 */
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Alert, Box, Button, FormControlLabel, Grid, Paper, Stack, Switch, TextField, Typography } from '@mui/material';
import MailOutlineIcon from '@mui/icons-material/MailOutlined';
import { MAX_FROM_NAME_LENGTH, entitlements, sendEmailRefusal, type TemplateDetail } from '@sheaf/shared';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { translateCode } from '../../i18n/errors.ts';
import SenderPicker from '../senders/SenderPicker.tsx';
import { useEdition, usePlan } from '../senders/useSenders.ts';
import AttachmentsField from './AttachmentsField.tsx';
import ContentEditor from './ContentEditor.tsx';
import { liveProblems, type EmailField } from './emailRules.ts';
import { emailChanged } from './emailSlice.ts';
import RecipientColumns from './RecipientColumns.tsx';
import RecipientsCheckLine from './RecipientsCheckLine.tsx';
import SpamScoreLine from './SpamScoreLine.tsx';
import SubjectField from './SubjectField.tsx';
import TestEmailButton from './TestEmailButton.tsx';
import { useEmailDraft } from './useEmailSettings.ts';
import { useWizardExcel } from '../wizard/templateDetail.ts';

export default function EmailOptions({ template, firstRow }: { template: TemplateDetail; firstRow?: number }) {
  const { t } = useTranslation(['email', 'errors']);
  const dispatch = useAppDispatch();
  useEmailDraft(template);
  const plan = usePlan();
  const edition = useEdition();
  const loaded = useAppSelector((state) => state.email.templateId === template.id);
  const settings = useAppSelector((state) => state.email.settings);
  const formErrors = useAppSelector((state) => state.email.formErrors);
  const headings = useWizardExcel()?.headers ?? [];
  const sendRefusal = sendEmailRefusal(entitlements(plan, edition));
  const canSend = sendRefusal === null;
  const active = loaded && canSend && settings.isActive;
  const live = liveProblems(settings, headings);
  const problem = (field: EmailField): string | undefined => {
    const found = formErrors[field] ?? live[field];
    return found ? translateCode(found.code, found.params, t) : undefined;
  };
  const change = (patch: Parameters<typeof emailChanged>[0]) => dispatch(emailChanged(patch));

  return (
    <Paper variant="outlined" component="section" aria-labelledby="email-options-title" sx={{ p: { xs: 2, sm: 3 } }} data-testid="email-options">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <MailOutlineIcon color={active ? 'primary' : 'action'} />
        <Typography id="email-options-title" variant="h6" component="h2" sx={{ flex: 1 }}>{t('options.title')}</Typography>
        <FormControlLabel
          control={<Switch checked={active} disabled={!canSend || !loaded} onChange={(_, isActive) => change({ isActive })} />}
          label={t('options.active')}
          labelPlacement="start"
        />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>{t('options.description')}</Typography>
      {!canSend && (
        <Alert severity="info" sx={{ mb: 2 }} action={<Button color="inherit" size="small" component={RouterLink} to="/billing">{t('options.upgrade')}</Button>}>
          {translateCode(sendRefusal ?? 'email/plan-required', undefined, t)}
        </Alert>
      )}
      {formErrors.general && <Alert severity="error" sx={{ mb: 2 }}>{problem('general')}</Alert>}
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={2}>
            <SenderPicker value={settings.senderId} onChange={(senderId) => change({ senderId })} disabled={!active} error={active ? problem('fromEmail') : undefined} />
            {active && (
              <>
                <TextField
                  size="small"
                  label={t('compose.fromName')}
                  value={settings.fromName}
                  onChange={(event) => change({ fromName: event.target.value })}
                  error={problem('fromName') !== undefined}
                  helperText={problem('fromName') ?? t('compose.fromNameHint', { count: settings.fromName.length, max: MAX_FROM_NAME_LENGTH })}
                  slotProps={{ htmlInput: { maxLength: MAX_FROM_NAME_LENGTH, 'data-testid': 'email-from-name' } }}
                  fullWidth
                />
                <RecipientColumns settings={settings} headings={headings} onChange={change} error={problem('recipientsColumn')} />
                <TextField
                  size="small"
                  label={t('compose.replyTo')}
                  value={settings.replyTo}
                  onChange={(event) => change({ replyTo: event.target.value })}
                  error={problem('replyTo') !== undefined}
                  helperText={problem('replyTo') ?? t('compose.replyToHint', { example: '{{Email}}' })}
                  slotProps={{ htmlInput: { maxLength: 320 } }}
                  fullWidth
                />
              </>
            )}
          </Stack>
        </Grid>
        {active && (
          <Grid size={{ xs: 12, md: 7 }}>
            <Stack spacing={2}>
              <SubjectField value={settings.subject} headings={headings} onChange={(subject) => change({ subject })} error={problem('subject')} />
              <ContentEditor value={settings.content} headings={headings} onChange={(content) => change({ content })} error={problem('content')} />
              <AttachmentsField templateId={template.id} attachments={settings.staticAttachments} />
            </Stack>
          </Grid>
        )}
      </Grid>
      {!active && canSend && loaded && <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>{t('options.offHint')}</Typography>}
      {active && (
        <Stack spacing={1.5} sx={{ mt: 3 }}>
          <RecipientsCheckLine enabled={active} />
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', justifyContent: 'space-between' }}>
            <SpamScoreLine disabled={!active} />
            <TestEmailButton disabled={!active} rowNumber={firstRow} />
          </Box>
        </Stack>
      )}
    </Paper>
  );
}
