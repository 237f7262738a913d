import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import GridViewOutlined from '@mui/icons-material/GridViewOutlined';
import Search from '@mui/icons-material/Search';
import ViewListOutlined from '@mui/icons-material/ViewListOutlined';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { HomeView } from './homeSlice.ts';

interface Props {
  search: string;
  onSearch: (value: string) => void;
  view: HomeView;
  onView: (view: HomeView) => void;
  importButton: React.ReactNode;
  showSearch: boolean;
  /** Off while the empty placeholder shows its own "Create mail merge". */
  showCreate: boolean;
}

/** Title, search, grid/list switch, import and "Create mail merge". */
export default function HomeToolbar({ search, onSearch, view, onView, importButton, showSearch, showCreate }: Props) {
  const { t } = useTranslation('home');
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} sx={{ alignItems: { md: 'center' }, gap: 2, mb: 3 }}>
      <Typography variant="h5" component="h1" sx={{ flexGrow: 1, fontWeight: 600 }}>{t('title')}</Typography>
      {showSearch && (
        <>
          <TextField
            size="small"
            type="search"
            label={t('search.label')}
            value={search}
            onChange={(event) => onSearch(event.target.value)}
            sx={{ minWidth: { md: 220 }, flex: { md: '0 1 320px' } }}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> } }}
          />
          <ToggleButtonGroup
            size="small"
            exclusive
            value={view}
            aria-label={t('view.label')}
            onChange={(_, next: HomeView | null) => next && onView(next)}
          >
            <ToggleButton value="grid" aria-label={t('view.grid')}><GridViewOutlined fontSize="small" /></ToggleButton>
            <ToggleButton value="list" aria-label={t('view.list')}><ViewListOutlined fontSize="small" /></ToggleButton>
          </ToggleButtonGroup>
        </>
      )}
      {importButton}
      {showCreate && (
        <Button variant="contained" startIcon={<Add />} component={RouterLink} to="/wizard/new" sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
          {t('create')}
        </Button>
      )}
    </Stack>
  );
}
