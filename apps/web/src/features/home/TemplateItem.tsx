import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TemplateSummary } from '@sheaf/shared';
import TemplateMenu, { type TemplateMenuAction } from './TemplateMenu.tsx';
import TemplateThumbnail from './TemplateThumbnail.tsx';
import { isMergeRunning, templateDisplayName } from './templateList.ts';
import type { HomeView } from './homeSlice.ts';

interface Props {
  template: TemplateSummary;
  view: HomeView;
  historyOpen: boolean;
  onAction: (action: TemplateMenuAction, template: TemplateSummary) => void;
}

function TemplateFacts({ template }: { template: TemplateSummary }) {
  const { t, i18n } = useTranslation('home');
  const changed = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(template.updatedAt));
  const running = template.merges.some(isMergeRunning);
  return (
    <>
      {/* A Word template says so: its file is a DOCX, edited and merged as a document (docs/word-templates.md). */}
      {template.templateType === 'sfdt' && (
        <Chip size="small" variant="outlined" color="primary" icon={<DescriptionOutlinedIcon />} label={t('card.word')} sx={{ mb: 0.5, alignSelf: 'flex-start' }} />
      )}
      {/* A locked PDF's pages are unknown until it is unlocked: say it is locked, not "0 pages". */}
      <Typography variant="body2" color="text.secondary" noWrap>
        {template.isEncrypted ? t('card.locked') : t('card.pages', { count: template.numPages })}
      </Typography>
      <Typography variant="body2" color="text.secondary" noWrap title={template.excelName ?? undefined}>
        {template.excelName ? t('card.spreadsheet', { name: template.excelName }) : t('card.noSpreadsheet')}
      </Typography>
      <Typography variant="body2" color="text.secondary" noWrap>
        {t('card.changed', { date: changed })}
      </Typography>
      {running && (
        <Chip
          size="small"
          color="info"
          icon={<CircularProgress size={12} color="inherit" />}
          label={t('card.running')}
          sx={{ mt: 0.5, alignSelf: 'flex-start' }}
        />
      )}
    </>
  );
}

/** One template of the home page, as a card (grid view) or a row (list view). */
export default function TemplateItem({ template, view, historyOpen, onAction }: Props) {
  const { t } = useTranslation('home');
  const name = templateDisplayName(template);
  const wizardPath = `/wizard/${template.id}`;
  const menu = (
    <TemplateMenu
      templateName={name}
      hasSpreadsheet={template.excelName !== null}
      historyOpen={historyOpen}
      onAction={(action) => onAction(action, template)}
    />
  );

  if (view === 'grid') {
    return (
      <Card variant="outlined" component="article" aria-label={name} sx={{ display: 'flex', flexDirection: 'column' }}>
        <CardActionArea component={RouterLink} to={wizardPath} aria-label={t('card.open', { name })} sx={{ p: 1.5, display: 'flex', justifyContent: 'center' }}>
          <TemplateThumbnail templateId={template.id} thumbnailUrl={template.thumbnailUrl} name={name} locked={template.isEncrypted} width="70%" />
        </CardActionArea>
        <Stack direction="row" sx={{ alignItems: 'flex-start', px: 1.5, pb: 1.5, gap: 0.5 }}>
          <Stack sx={{ minWidth: 0, flex: 1 }}>
            {/* The name opens the template too, as it does in the list view. */}
            <Typography variant="subtitle1" component="h3" noWrap title={name} sx={{ fontWeight: 600 }}>
              <Box component={RouterLink} to={wizardPath} sx={{ color: 'inherit', textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}>
                {name}
              </Box>
            </Typography>
            <TemplateFacts template={template} />
          </Stack>
          {menu}
        </Stack>
      </Card>
    );
  }

  return (
    <Paper variant="outlined" component="article" aria-label={name} sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 1.5 }}>
      <Box component={RouterLink} to={wizardPath} tabIndex={-1} aria-hidden sx={{ display: 'block' }}>
        <TemplateThumbnail templateId={template.id} thumbnailUrl={template.thumbnailUrl} name={name} locked={template.isEncrypted} width={56} />
      </Box>
      <Stack sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="subtitle1" component="h3" noWrap title={name} sx={{ fontWeight: 600 }}>
          <Box component={RouterLink} to={wizardPath} sx={{ color: 'inherit', textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}>
            {name}
          </Box>
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ columnGap: 3 }}>
          <TemplateFacts template={template} />
        </Stack>
      </Stack>
      {menu}
    </Paper>
  );
}
