/**
 * Search placeholders by column name: the list under the field shows the matches in reading order;
 * choosing one scrolls to it and selects it.
 */
import { useState } from 'react';
import { Box, List, ListItem, ListItemButton, ListItemIcon, ListItemText, TextField, Typography } from '@mui/material';
import WarningAmber from '@mui/icons-material/WarningAmber';
import { useTranslation } from 'react-i18next';
import type { Placeholder } from '@sheaf/shared';
import { filterByColumn, isMissingColumn } from './placeholders.ts';
import { TypeIcon } from './typeIcons.tsx';

interface PlaceholderListProps {
  placeholders: Placeholder[];
  selection: string[];
  headings: string[] | null;
  onChoose: (placeholder: Placeholder) => void;
}

export default function PlaceholderList({ placeholders, selection, headings, onChoose }: PlaceholderListProps) {
  const { t } = useTranslation('editor');
  const [search, setSearch] = useState('');
  const found = filterByColumn(placeholders, search);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <Box sx={{ px: 1.5, pt: 1.5 }}>
        <TextField size="small" fullWidth type="search" label={t('search.label')} value={search} onChange={(event) => setSearch(event.target.value)} />
      </Box>
      <List dense aria-label={t('search.results')} sx={{ overflow: 'auto' }}>
        {/* Each button in its own list item: a list holds only items (list semantics for screen readers). */}
        {found.map((item) => (
          <ListItem key={item.id} disablePadding>
            <ListItemButton selected={selection.includes(item.id)} onClick={() => onChoose(item)}>
              <ListItemIcon sx={{ minWidth: 28 }}>
                {isMissingColumn(item.column, headings) ? <WarningAmber fontSize="small" color="warning" /> : <TypeIcon type={item.type} />}
              </ListItemIcon>
              <ListItemText primary={item.column} secondary={t('search.onPage', { page: item.pageNumber })} slotProps={{ primary: { noWrap: true } }} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      {found.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {placeholders.length === 0 ? t('search.none') : t('search.noMatch')}
        </Typography>
      ) : null}
    </Box>
  );
}
