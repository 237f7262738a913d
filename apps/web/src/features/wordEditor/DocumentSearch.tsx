/** Search in the document's text: every hit marked, Enter, Next and Previous move the cursor to the end of one. */
import { useState } from 'react';
import { IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import type { SearchHit } from './docxModel.ts';

interface DocumentSearchProps {
  query: string;
  onQuery: (query: string) => void;
  hits: SearchHit[];
  /** Whether the cursor is placed (Enter then goes to the next hit rather than the first). */
  hasCaret: boolean;
  onGoTo: (hit: SearchHit) => void;
}

export default function DocumentSearch({ query, onQuery, hits, hasCaret, onGoTo }: DocumentSearchProps) {
  const { t } = useTranslation('editor');
  const [current, setCurrent] = useState(0);

  const goToHit = (index: number) => {
    if (hits.length === 0) return;
    const wrapped = (index + hits.length) % hits.length;
    setCurrent(wrapped);
    onGoTo(hits[wrapped]!);
  };

  return (
    <>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <TextField
          size="small"
          fullWidth
          label={t('word.searchLabel')}
          value={query}
          onChange={(event) => {
            onQuery(event.target.value);
            setCurrent(0);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              goToHit(event.shiftKey ? current - 1 : current + (hasCaret ? 1 : 0));
            }
          }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
        />
        <Tooltip title={t('word.previous')}>
          <span><IconButton aria-label={t('word.previous')} disabled={hits.length === 0} onClick={() => goToHit(current - 1)}><KeyboardArrowUpIcon /></IconButton></span>
        </Tooltip>
        <Tooltip title={t('word.next')}>
          <span><IconButton aria-label={t('word.next')} disabled={hits.length === 0} onClick={() => goToHit(current + 1)}><KeyboardArrowDownIcon /></IconButton></span>
        </Tooltip>
      </Stack>
      {query.trim() && (
        <Typography variant="body2" color="text.secondary" role="status" data-testid="word-search-count">
          {hits.length === 0 ? t('word.searchNone') : t('word.searchCount', { count: hits.length })}
        </Typography>
      )}
    </>
  );
}
