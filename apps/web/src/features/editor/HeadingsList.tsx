/**
 * The spreadsheet's headings: click one to add a placeholder for it on the current page, or drag it
 * onto a page. Without a spreadsheet, a field takes the name of the column to add.
 */
import { useState, type FormEvent } from 'react';
import { Box, Button, List, ListItem, ListItemButton, ListItemIcon, ListItemText, ListSubheader, TextField, Typography } from '@mui/material';
import DragIndicator from '@mui/icons-material/DragIndicator';
import { useTranslation } from 'react-i18next';
import type { Placeholder } from '@sheaf/shared';
import { HEADING_DRAG_TYPE } from './PageCanvas.tsx';

interface HeadingsListProps {
  headings: string[] | null;
  placeholders: Placeholder[];
  onAdd: (column: string) => void;
}

export default function HeadingsList({ headings, placeholders, onAdd }: HeadingsListProps) {
  const { t } = useTranslation('editor');
  const [name, setName] = useState('');

  if (headings === null) {
    const submit = (event: FormEvent) => {
      event.preventDefault();
      const column = name.trim();
      if (!column) return;
      onAdd(column);
      setName('');
    };
    return (
      <Box component="form" onSubmit={submit} sx={{ p: 1.5, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Typography variant="subtitle2">{t('headings.title')}</Typography>
        <Typography variant="body2" color="text.secondary">{t('headings.noSpreadsheet')}</Typography>
        <TextField size="small" label={t('headings.nameLabel')} value={name} onChange={(event) => setName(event.target.value)} slotProps={{ htmlInput: { maxLength: 255 } }} />
        <Button type="submit" variant="outlined" size="small" disabled={!name.trim()}>
          {t('headings.addNamed')}
        </Button>
      </Box>
    );
  }

  const used = new Map<string, number>();
  for (const item of placeholders) used.set(item.column, (used.get(item.column) ?? 0) + 1);

  return (
    <List dense aria-label={t('headings.title')} subheader={<ListSubheader>{t('headings.title')}</ListSubheader>} sx={{ py: 0 }}>
      {headings.length === 0 ? (
        <ListItem>
          <Typography variant="body2" color="text.secondary">{t('headings.empty')}</Typography>
        </ListItem>
      ) : null}
      {/* Each button in its own list item: a list holds only items (list semantics for screen readers). */}
      {headings.map((heading, index) => (
        <ListItem key={`${index}:${heading}`} disablePadding>
          <ListItemButton
            draggable
            onDragStart={(event) => {
              event.dataTransfer.setData(HEADING_DRAG_TYPE, heading);
              event.dataTransfer.setData('text/plain', heading);
              event.dataTransfer.effectAllowed = 'copy';
            }}
            onClick={() => onAdd(heading)}
            aria-label={t('headings.add', { column: heading })}
            title={t('headings.dragHint')}
          >
            <ListItemIcon sx={{ minWidth: 28 }}>
              <DragIndicator fontSize="small" />
            </ListItemIcon>
            <ListItemText
              primary={heading}
              secondary={used.get(heading) ? t('headings.usedCount', { count: used.get(heading) }) : null}
              slotProps={{ primary: { noWrap: true } }}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}
