/**
 * Properties of the selected placeholders: column, type and its settings, font, and position and
 * size in points. With several selected, the fields show the first one and an edit applies to all.
 */
import { Box, Button, Divider, FormControl, InputLabel, ListItemIcon, ListItemText, MenuItem, Select, Typography } from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Delete from '@mui/icons-material/Delete';
import { useTranslation } from 'react-i18next';
import { PLACEHOLDER_TYPES, type Placeholder, type PlaceholderType } from '@sheaf/shared';
import { useAppDispatch } from '../../app/hooks.ts';
import { pageSizeOf, type Size } from './geometry.ts';
import { clampedBox, duplicateSelected, removeSelected } from './editorSlice.ts';
import { isMissingColumn } from './placeholders.ts';
import { focusPagesView } from './focus.ts';
import { NumberField, TextDraftField, useApplyEdit } from './fields.tsx';
import { TypeIcon } from './typeIcons.tsx';
import ColumnField from './ColumnField.tsx';
import FontFields from './FontFields.tsx';
import TypeSettingsFields from './TypeSettingsFields.tsx';
import ImageFields, { type TemplateImage } from './ImageFields.tsx';

interface PropertiesPanelProps {
  templateId: string;
  selected: Placeholder[];
  headings: string[] | null;
  pages: Size[];
  customFonts: string[];
  images: TemplateImage[];
  onImagesChange: (images: TemplateImage[]) => void;
}

const BOX_FIELDS = [
  { key: 'relativeX', label: 'x', axis: 'width' },
  { key: 'relativeY', label: 'y', axis: 'height' },
  { key: 'relativeWidth', label: 'width', axis: 'width' },
  { key: 'relativeHeight', label: 'height', axis: 'height' },
] as const;

export default function PropertiesPanel({ templateId, selected, headings, pages, customFonts, images, onImagesChange }: PropertiesPanelProps) {
  const { t } = useTranslation('editor');
  const dispatch = useAppDispatch();
  const apply = useApplyEdit(selected);
  const first = selected[0];

  if (!first) {
    return (
      <Box sx={{ p: 2 }}>
        <Typography variant="subtitle2" gutterBottom>{t('properties.title')}</Typography>
        <Typography variant="body2" color="text.secondary">{t('properties.empty')}</Typography>
      </Box>
    );
  }

  const page = pageSizeOf(pages, first.pageNumber);
  const missing = isMissingColumn(first.column, headings);
  const setType = (type: PlaceholderType) => apply('type', () => ({ type }));

  return (
    <Box component="section" aria-label={t('properties.title')} sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography variant="subtitle2">
        {selected.length > 1 ? t('properties.titleMany', { count: selected.length }) : t('properties.title')}
      </Typography>
      {headings !== null ? (
        <ColumnField headings={headings} value={first.column} missing={missing} onCommit={(column) => apply('column', () => ({ column }))} />
      ) : (
        <TextDraftField label={t('properties.column')} value={first.column} onCommit={(value) => apply('column', () => ({ column: value.trim().slice(0, 255) }))} />
      )}
      <FormControl size="small">
        <InputLabel id="editor-type">{t('properties.type')}</InputLabel>
        <Select labelId="editor-type" label={t('properties.type')} value={first.type} onChange={(event) => setType(event.target.value as PlaceholderType)} renderValue={(value) => t(`types.${value}`)}>
          {PLACEHOLDER_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              <ListItemIcon><TypeIcon type={type} /></ListItemIcon>
              <ListItemText primary={t(`types.${type}`)} secondary={t(`typeHints.${type}`)} />
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <TypeSettingsFields first={first} apply={apply} />
      {first.type === 'image' ? <ImageFields templateId={templateId} images={images} onImagesChange={onImagesChange} /> : null}
      {first.type === 'image' || first.type === 'qrcode' || first.type === 'eSignature' ? null : (
        <>
          <Divider />
          <FontFields first={first} pages={pages} customFonts={customFonts} apply={apply} />
        </>
      )}
      <Divider />
      <Typography variant="caption" color="text.secondary">{t('properties.boxHelp', { page: first.pageNumber })}</Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
        {BOX_FIELDS.map((field) => {
          const scale = page[field.axis];
          return (
            <NumberField
              key={field.key}
              label={t(`properties.${field.label}`)}
              value={first[field.key] * scale}
              min={0}
              max={scale}
              step={1}
              onCommit={(points) =>
                apply(field.key, (item) => {
                  // Sides must stay above zero; positions may be 0.
                  const value = field.key === 'relativeWidth' || field.key === 'relativeHeight' ? Math.max(points, 0.5) : points;
                  return clampedBox(item, { [field.key]: value / pageSizeOf(pages, item.pageNumber)[field.axis] });
                })
              }
            />
          );
        })}
      </Box>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button size="small" startIcon={<ContentCopy />} onClick={() => dispatch(duplicateSelected(selected.map((item) => item.id)))}>
          {t('properties.duplicate')}
        </Button>
        <Button size="small" color="error" startIcon={<Delete />} onClick={() => {
          dispatch(removeSelected());
          focusPagesView();
        }}>
          {t('properties.delete')}
        </Button>
      </Box>
    </Box>
  );
}
