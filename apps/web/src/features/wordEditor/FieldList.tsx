/**
 * The spreadsheet's headings as fields to insert at the cursor ({{Heading}}); without a spreadsheet,
 * a field is typed by name. Disabled until the cursor is placed in the text.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, List, ListItem, ListItemButton, ListItemIcon, ListItemText, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/AddCircleOutlineOutlined';
import { useTranslation } from 'react-i18next';

interface FieldListProps {
  headings: string[] | null;
  canInsert: boolean;
  onInsert: (heading: string) => void;
}

export default function FieldList({ headings, canInsert, onInsert }: FieldListProps) {
  const { t } = useTranslation('editor');
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const field = name.trim();
    if (!field || !canInsert) return;
    onInsert(field);
    setName('');
  };
  return (
    <Stack spacing={1} component="section" aria-labelledby="word-fields-title">
      <Typography variant="subtitle1" component="h2" id="word-fields-title">{t('word.fieldsTitle')}</Typography>
      {!canInsert && <Alert severity="info" data-testid="word-no-caret">{t('word.noCaret')}</Alert>}
      {headings === null ? (
        <Box component="form" onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Typography variant="body2" color="text.secondary">{t('word.noSheet')}</Typography>
          <TextField size="small" label={t('word.fieldName')} value={name} onChange={(event) => setName(event.target.value)} slotProps={{ htmlInput: { maxLength: 255 } }} />
          <Button type="submit" variant="outlined" size="small" disabled={!canInsert || !name.trim()}>{t('word.insertNamed')}</Button>
        </Box>
      ) : (
        <List dense aria-labelledby="word-fields-title" sx={{ py: 0, border: 1, borderColor: 'divider', borderRadius: 1, maxHeight: 280, overflow: 'auto' }}>
          {headings.length === 0 && <ListItem><Typography variant="body2" color="text.secondary">{t('headings.empty')}</Typography></ListItem>}
          {headings.map((heading, index) => (
            <ListItem key={`${index}:${heading}`} disablePadding>
              <ListItemButton disabled={!canInsert} onClick={() => onInsert(heading)} aria-label={t('word.insert', { field: `{{${heading}}}` })}>
                <ListItemIcon sx={{ minWidth: 32 }}><AddIcon fontSize="small" /></ListItemIcon>
                <ListItemText primary={heading} secondary={`{{${heading}}}`} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Stack>
  );
}
