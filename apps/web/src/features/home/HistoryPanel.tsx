import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TemplateSummary } from '@sheaf/shared';
import MergeHistoryItem from './MergeHistoryItem.tsx';
import { templateDisplayName } from './templateList.ts';
import type { TemplateActions } from './useTemplateActions.ts';

interface Props {
  template: TemplateSummary;
  actions: TemplateActions;
}

/** The merge history of one template, newest first (as the server sends it). */
export default function HistoryPanel({ template, actions }: Props) {
  const { t } = useTranslation('home');
  const name = templateDisplayName(template);
  return (
    <Box component="section" aria-label={t('history.title', { name })} sx={{ px: 2, pb: 1 }}>
      <Typography variant="subtitle2" sx={{ pt: 1.5, pb: 1 }}>{t('history.title', { name })}</Typography>
      {template.merges.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ pb: 1 }}>{t('history.empty')}</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, p: 0 }}>
          {template.merges.map((merge) => (
            <MergeHistoryItem key={merge.mergeId} merge={merge} placeholderCount={template.placeholderCount} actions={actions} />
          ))}
        </Box>
      )}
    </Box>
  );
}
