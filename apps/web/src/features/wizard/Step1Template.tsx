/**
 * Step 1: the template. On /wizard/new the upload creates the template and the address becomes
 * /wizard/<id>; an existing template shows its thumbnail and page count and can have its file
 * replaced (placeholders stay). A locked PDF opens the decrypt dialog.
 */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import type { TemplateDetail } from '@sheaf/shared';
import { queryKeys } from '../../api/queryKeys.ts';
import { api } from '../../api/client.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { useThumbnail } from '../home/useThumbnail.ts';
import { thumbnailArrivalQuery } from './api.ts';
import WizardDropzone from './WizardDropzone.tsx';
import { useMaxUploadBytes, useRunStep } from './wizardHooks.ts';
import { templateReceived, useWizardDetail } from './templateDetail.ts';
import { setOpenEncryptionDialog } from './wizardSlice.ts';

/** The server renders the thumbnail after answering the upload: the template is asked for again until it is there. */
function useThumbnailArrival(template: TemplateDetail): void {
  const waiting = template.thumbnailUrl === null && !template.isEncrypted;
  useQuery({ ...thumbnailArrivalQuery(template.id), enabled: waiting });
}

function TemplateCard({ template }: { template: TemplateDetail }) {
  const { t } = useTranslation('wizard');
  const dispatch = useAppDispatch();
  const thumbnail = useThumbnail(template.id, template.thumbnailUrl);
  useThumbnailArrival(template);
  const name = template.customName ?? template.name;
  return (
    <Card variant="outlined" data-testid="current-template">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ p: 2, alignItems: { sm: 'center' } }}>
        <Box sx={{ width: 120, height: 160, flexShrink: 0, border: 1, borderColor: 'divider', bgcolor: 'grey.100', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          {thumbnail
            ? <img src={thumbnail} alt={t('template.thumbnailAlt', { name })} style={{ maxWidth: '100%', maxHeight: '100%' }} />
            : template.isEncrypted ? <LockOutlinedIcon color="action" fontSize="large" /> : <Skeleton variant="rectangular" width={120} height={160} />}
        </Box>
        <CardContent sx={{ flex: 1 }}>
          <Typography variant="h6" component="h2">{name}</Typography>
          {template.customName && <Typography variant="body2" color="text.secondary">{template.name}</Typography>}
          {template.numPages > 0 && <Typography variant="body2" sx={{ mt: 1 }}>{t('template.pages', { count: template.numPages })}</Typography>}
          {template.isEncrypted && (
            <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
              <Chip icon={<LockOutlinedIcon />} label={t('template.locked')} color="warning" size="small" />
              <Button size="small" onClick={() => dispatch(setOpenEncryptionDialog(true))}>{t('template.unlock')}</Button>
            </Stack>
          )}
        </CardContent>
      </Stack>
    </Card>
  );
}

export default function Step1Template({ isNew }: { isNew: boolean }) {
  const { t } = useTranslation('wizard');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const runStep = useRunStep();
  const maxBytes = useMaxUploadBytes();
  const template = useWizardDetail();

  async function uploaded(detail: TemplateDetail) {
    dispatch(templateReceived(detail, queryClient));
    void queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() });
    notify('success', t('template.uploadSuccess'));
    if (isNew) navigate(`/wizard/${detail.id}`, { replace: true });
    // A locked file opens the decrypt dialog (templateReceived); it continues to step 2 once unlocked.
    if (isNew && !detail.isEncrypted) await runStep(1);
  }

  const uploadNew = async (file: File, onProgress: (fraction: number) => void) => {
    const detail = await api.call('uploadTemplate', { file, query: { name: file.name }, onUploadProgress: onProgress });
    await uploaded(detail);
  };

  const replace = async (file: File, onProgress: (fraction: number) => void) => {
    if (!template) return;
    const detail = await api.call('replaceTemplateFile', { params: { id: template.id }, file, onUploadProgress: onProgress });
    await uploaded(detail);
  };

  if (isNew || !template) {
    return (
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">{t('template.newTitle')}</Typography>
        <Typography color="text.secondary">{t('template.newDescription')}</Typography>
        <WizardDropzone kind="template" label={t('template.dropLabel')} maxBytes={maxBytes} upload={uploadNew} />
      </Stack>
    );
  }

  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h1">{t('template.title')}</Typography>
      <TemplateCard template={template} />
      {template.isEncrypted && <Alert severity="warning">{t('template.lockedHint')}</Alert>}
      <Box>
        <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>{t('template.replaceTitle')}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{t('template.replaceDescription')}</Typography>
        <WizardDropzone kind="template" label={t('template.replaceLabel')} maxBytes={maxBytes} upload={replace} compact />
      </Box>
    </Stack>
  );
}
