/** A button that opens the spreadsheet's headings and inserts the chosen one as a {{Column}} tag. */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import DataObjectIcon from '@mui/icons-material/DataObject';

interface Props {
  headings: readonly string[];
  onPick: (heading: string) => void;
  disabled?: boolean;
  /** Icon only (inside a field) or a labelled button (in a toolbar). */
  compact?: boolean;
  /** What the tag is inserted into, for the accessible name ("Insert a column into the subject"). */
  target: string;
}

export default function ColumnTagMenu({ headings, onPick, disabled, compact, target }: Props) {
  const { t } = useTranslation('email');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const label = t('tags.insertInto', { target });
  const common = {
    disabled: disabled || headings.length === 0,
    'aria-haspopup': 'menu' as const,
    'aria-controls': anchor ? menuId : undefined,
    'aria-expanded': anchor ? true : undefined,
    // Keep the caret where it is in the field: the button must not take the selection.
    onMouseDown: (event: React.MouseEvent) => event.preventDefault(),
    onClick: (event: React.MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
  };
  return (
    <>
      {compact ? (
        <Tooltip title={label}><span><IconButton size="small" aria-label={label} {...common}><DataObjectIcon fontSize="small" /></IconButton></span></Tooltip>
      ) : (
        <Button size="small" startIcon={<DataObjectIcon />} aria-label={label} {...common}>{t('tags.insert')}</Button>
      )}
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { maxHeight: 320 } } }}>
        {headings.map((heading) => (
          <MenuItem key={heading} onClick={() => { setAnchor(null); onPick(heading); }}>{`{{${heading}}}`}</MenuItem>
        ))}
      </Menu>
    </>
  );
}
