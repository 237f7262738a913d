import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import LockOutlined from '@mui/icons-material/LockOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import { useTranslation } from 'react-i18next';
import { useThumbnailLoad } from './useThumbnail.ts';

interface Props {
  templateId: string;
  thumbnailUrl: string | null;
  name: string;
  /** Password protected: no preview until it is unlocked, a lock instead. */
  locked?: boolean;
  /** Width in px; the height follows an A4/Letter page's proportions. */
  width: number | string;
}

/** The first page of the template; a placeholder while it loads; a lock for a locked PDF; a PDF icon when there is none (or it failed). */
export default function TemplateThumbnail({ templateId, thumbnailUrl, name, locked = false, width }: Props) {
  const { t } = useTranslation('home');
  const { src, pending } = useThumbnailLoad(templateId, thumbnailUrl);
  return (
    <Box
      sx={{
        width,
        aspectRatio: '3 / 4',
        flexShrink: 0,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'grey.100',
        borderRadius: 1,
        overflow: 'hidden',
        border: 1,
        borderColor: 'divider',
      }}
    >
      {src ? (
        <Box component="img" src={src} alt={t('card.thumbnailAlt', { name })} sx={{ width: '100%', height: '100%', objectFit: 'contain', bgcolor: 'common.white' }} />
      ) : pending ? (
        <Skeleton variant="rectangular" width="100%" height="100%" aria-label={t('card.thumbnailLoading')} />
      ) : locked ? (
        <LockOutlined titleAccess={t('card.locked')} color="action" sx={{ width: '60%', maxWidth: 48, height: 'auto' }} />
      ) : (
        <PictureAsPdfOutlined titleAccess={t('card.noThumbnail')} color="action" sx={{ width: '60%', maxWidth: 48, height: 'auto' }} />
      )}
    </Box>
  );
}
