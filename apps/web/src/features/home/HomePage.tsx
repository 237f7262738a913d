import { Fragment, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TemplateSummary } from '@sheaf/shared';
import { updateMeMutation } from '../account/api.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import EmptyTemplates from './EmptyTemplates.tsx';
import HistoryPanel from './HistoryPanel.tsx';
import HomeDialogs, { type HomeDialog } from './HomeDialogs.tsx';
import HomeToolbar from './HomeToolbar.tsx';
import ImportTemplateButton from './ImportTemplateButton.tsx';
import TemplateItem from './TemplateItem.tsx';
import type { TemplateMenuAction } from './TemplateMenu.tsx';
import { selectExpandedHistory, selectHomeSearch, selectHomeView, setSearch, setView, toggleHistory, type HomeView } from './homeSlice.ts';
import { filterTemplates } from './templateList.ts';
import { useTemplateActions } from './useTemplateActions.ts';
import { useTemplates } from './useTemplates.ts';

const GRID_COLUMNS = 'repeat(auto-fill, minmax(230px, 1fr))';

/** `/`: the template library (docs/library.md#home-page). */
export default function HomePage() {
  const { t } = useTranslation('home');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const notify = useNotify();
  const { mutateAsync: updateMe } = useMutation(updateMeMutation(useQueryClient()));
  const templates = useTemplates();
  const user = useCurrentUser().data;
  const actions = useTemplateActions();
  const search = useAppSelector(selectHomeSearch);
  const expanded = useAppSelector(selectExpandedHistory);
  const view: HomeView = useAppSelector(selectHomeView) ?? user?.view ?? 'grid';
  const [dialog, setDialog] = useState<HomeDialog | null>(null);

  const changeView = (next: HomeView) => {
    dispatch(setView(next));
    // Remembered on the account, so the next visit (any device) opens in the same view.
    updateMe({ view: next }).catch(() => notify('error', t('view.failure')));
  };

  const onAction = (action: TemplateMenuAction, template: TemplateSummary) => {
    switch (action) {
      case 'use': return void navigate(`/wizard/${template.id}`);
      case 'copy': return void actions.copy(template);
      case 'export': return void actions.exportFile(template);
      case 'history': return void dispatch(toggleHistory(template.id));
      default: return setDialog({ kind: action, template });
    }
  };

  const importButton = <ImportTemplateButton onImport={actions.importFile} />;
  const all = templates.data ?? [];
  const shown = filterTemplates(all, search);
  const isEmpty = templates.isSuccess && all.length === 0;

  let content: React.ReactNode;
  if (templates.isPending) {
    content = (
      <Box sx={{ display: 'grid', gridTemplateColumns: GRID_COLUMNS, gap: 2 }} aria-busy="true" aria-label={t('loading')}>
        {[0, 1, 2, 3].map((key) => <Skeleton key={key} variant="rounded" height={320} />)}
      </Box>
    );
  } else if (templates.isError && all.length === 0) {
    content = (
      <Alert severity="error" action={<Button color="inherit" onClick={() => void templates.refetch()}>{t('retry')}</Button>}>
        {t('loadFailed')}
      </Alert>
    );
  } else if (isEmpty) {
    content = <EmptyTemplates importButton={<ImportTemplateButton onImport={actions.importFile} size="large" />} />;
  } else if (shown.length === 0) {
    content = <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>{t('search.noResults', { search })}</Typography>;
  } else {
    content = (
      <Box
        sx={view === 'grid' ? { display: 'grid', gridTemplateColumns: GRID_COLUMNS, gap: 2 } : { display: 'flex', flexDirection: 'column', gap: 1.5 }}
        aria-label={t('listLabel')}
        role="list"
      >
        {shown.map((template) => {
          const open = expanded.includes(template.id);
          return (
            <Fragment key={template.id}>
              <Box role="listitem" sx={{ minWidth: 0 }}>
                <TemplateItem template={template} view={view} historyOpen={open} onAction={onAction} />
                {open && view === 'list' && (
                  <Box sx={{ mt: 1, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}>
                    <HistoryPanel template={template} actions={actions} />
                  </Box>
                )}
              </Box>
              {/* In the grid the history takes a whole row under its card: cards are too narrow for it. */}
              {open && view === 'grid' && (
                <Box role="listitem" sx={{ gridColumn: '1 / -1', border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}>
                  <HistoryPanel template={template} actions={actions} />
                </Box>
              )}
            </Fragment>
          );
        })}
      </Box>
    );
  }

  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <HomeToolbar
        search={search}
        onSearch={(value) => dispatch(setSearch(value))}
        view={view}
        onView={changeView}
        importButton={all.length > 0 ? importButton : null}
        showSearch={all.length > 0}
        showCreate={!isEmpty}
      />
      <Stack>{content}</Stack>
      <HomeDialogs dialog={dialog} onClose={() => setDialog(null)} actions={actions} />
    </Container>
  );
}
