/**
 * Images of the template, for image placeholders: each row's cell names one of them. PNG or JPEG,
 * at most 2 MB (docs/limits.md#files-and-uploads), checked here before the upload and again by the
 * server.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, IconButton, List, ListItem, ListItemText, Typography } from '@mui/material';
import UploadFile from '@mui/icons-material/UploadFile';
import Delete from '@mui/icons-material/Delete';
import { useTranslation } from 'react-i18next';
import { MAX_IMAGE_BYTES } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { translateCode, translateError } from '../../i18n/errors.ts';
import { useNotify } from '../../app/snackbar.tsx';

export interface TemplateImage {
  name: string;
  size: number;
}

interface ImageFieldsProps {
  templateId: string;
  images: TemplateImage[];
  onImagesChange: (images: TemplateImage[]) => void;
}

const isImageFile = (file: File): boolean => /\.(png|jpe?g)$/i.test(file.name) || file.type === 'image/png' || file.type === 'image/jpeg';

export default function ImageFields({ templateId, images, onImagesChange }: ImageFieldsProps) {
  const { t, i18n } = useTranslation(['editor', 'errors']);
  const notify = useNotify();
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isImageFile(file)) return notify('error', translateCode('image/wrong-type', {}, t));
    if (file.size > MAX_IMAGE_BYTES) return notify('error', translateCode('image/too-large', { maxMb: MAX_IMAGE_BYTES / 1024 / 1024 }, t));
    setBusy(true);
    try {
      const result = await api.call('uploadImage', { params: { id: templateId }, file });
      onImagesChange(result.images);
      notify('success', t('image.uploaded', { name: file.name }));
    } catch (error) {
      notify('error', translateError(error, t));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (name: string) => {
    setBusy(true);
    try {
      const result = await api.call('deleteImage', { params: { id: templateId, name } });
      onImagesChange(result.images);
    } catch (error) {
      notify('error', translateError(error, t));
    } finally {
      setBusy(false);
    }
  };

  const kb = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="body2" color="text.secondary">{t('image.help')}</Typography>
      <input ref={fileInput} type="file" accept="image/png,image/jpeg,.png,.jpg,.jpeg" hidden onChange={(event) => void upload(event)} data-testid="editor-image-file" />
      <Button size="small" variant="outlined" startIcon={<UploadFile />} disabled={busy} onClick={() => fileInput.current?.click()}>
        {t('image.upload')}
      </Button>
      <List dense aria-label={t('image.list')}>
        {images.length === 0 ? <Typography variant="body2" color="text.secondary">{t('image.none')}</Typography> : null}
        {images.map((image) => (
          <ListItem
            key={image.name}
            disableGutters
            secondaryAction={
              <IconButton edge="end" size="small" aria-label={t('image.delete', { name: image.name })} disabled={busy} onClick={() => void remove(image.name)}>
                <Delete fontSize="small" />
              </IconButton>
            }
          >
            <ListItemText primary={image.name} secondary={t('image.size', { size: kb.format(Math.max(1, image.size / 1024)) })} slotProps={{ primary: { noWrap: true } }} />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
