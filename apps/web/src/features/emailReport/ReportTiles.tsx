/**
 * The report's tiles: one count per status (docs/email.md#message-states). With `onPick` each tile is a
 * button that filters the table by its status (the total tile clears the filter).
 */
import { useTranslation } from 'react-i18next';
import { ButtonBase, Chip, Paper, Typography, Box } from '@mui/material';
import type { EmailEventCounts, MessageStatus } from '@sheaf/shared';
import { STATUS_COLOR, TILES } from './reportRules.ts';

export function StatusChip({ status }: { status: MessageStatus }) {
  const { t } = useTranslation('email');
  return <Chip size="small" color={STATUS_COLOR[status]} variant={status === 'queued' || status === 'cancelled' ? 'outlined' : 'filled'} label={t(`status.${status}`)} />;
}

interface Props {
  counts: EmailEventCounts;
  selected?: MessageStatus | '';
  onPick?: (status: MessageStatus | '') => void;
}

export default function ReportTiles({ counts, selected, onPick }: Props) {
  const { t, i18n } = useTranslation('email');
  return (
    <Box role="list" aria-label={t('report.tiles')} sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(5, 1fr)' }, gap: 1 }}>
      {TILES.map(({ key, status }) => {
        const active = onPick !== undefined && selected === status;
        const color = status === '' ? 'primary.main' : { default: 'text.secondary', info: 'info.main', success: 'success.main', warning: 'warning.main', error: 'error.main' }[STATUS_COLOR[status]];
        const content = (
          <>
            <Typography variant="h5" component="p" sx={{ fontWeight: 600, color, lineHeight: 1.2 }}>{counts[key].toLocaleString(i18n.language)}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', hyphens: 'auto' }}>{t(`report.count.${key}`)}</Typography>
          </>
        );
        return (
          <Paper key={key} role="listitem" variant="outlined" sx={{ borderColor: active ? 'primary.main' : undefined, borderWidth: active ? 2 : 1, overflow: 'hidden' }} data-testid={`tile-${key}`}>
            {onPick ? (
              <ButtonBase
                onClick={() => onPick(status)}
                aria-pressed={active}
                aria-label={t('report.tileFilter', { count: counts[key], label: t(`report.count.${key}`) })}
                sx={{ display: 'block', width: '100%', textAlign: 'left', p: 1.5, '&:focus-visible': { bgcolor: 'action.focus' } }}
              >
                {content}
              </ButtonBase>
            ) : <Box sx={{ p: 1.5 }}>{content}</Box>}
          </Paper>
        );
      })}
    </Box>
  );
}
