/**
 * Font properties of the selection: family (standard fonts and the user's own, with an upload),
 * size in points (stored relative to the page height), bold/italic, underline/strikethrough,
 * alignment and colour.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, FormControl, InputLabel, MenuItem, Select, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import FormatBold from '@mui/icons-material/FormatBold';
import FormatItalic from '@mui/icons-material/FormatItalic';
import FormatUnderlined from '@mui/icons-material/FormatUnderlined';
import StrikethroughS from '@mui/icons-material/StrikethroughS';
import FormatAlignLeft from '@mui/icons-material/FormatAlignLeft';
import FormatAlignCenter from '@mui/icons-material/FormatAlignCenter';
import FormatAlignRight from '@mui/icons-material/FormatAlignRight';
import UploadFile from '@mui/icons-material/UploadFile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Placeholder } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { translateCode, translateError } from '../../i18n/errors.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { fontSizeToRelative, pageSizeOf, relativeToFontSize, type Size } from './geometry.ts';
import { fontChoices, FONTS_QUERY_KEY, isFontFile } from './fonts.ts';
import { NumberField, type ApplyEdit } from './fields.tsx';

interface FontFieldsProps {
  first: Placeholder;
  pages: Size[];
  customFonts: string[];
  apply: ApplyEdit;
}

const styleOf = (bold: boolean, italic: boolean): Placeholder['fontStyle'] =>
  bold && italic ? 'boldItalic' : bold ? 'bold' : italic ? 'italic' : 'normal';

export default function FontFields({ first, pages, customFonts, apply }: FontFieldsProps) {
  const { t } = useTranslation(['editor', 'errors']);
  const notify = useNotify();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const choices = fontChoices(customFonts);
  const familyKnown = choices.includes(first.fontFamily);
  const sizePt = relativeToFontSize(first.relativeFontSize, pageSizeOf(pages, first.pageNumber).height);
  const bold = first.fontStyle === 'bold' || first.fontStyle === 'boldItalic';
  const italic = first.fontStyle === 'italic' || first.fontStyle === 'boldItalic';
  const styles = [...(bold ? ['bold'] : []), ...(italic ? ['italic'] : [])];

  const uploadFont = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isFontFile(file)) {
      notify('error', translateCode('font/wrong-type', {}, t));
      return;
    }
    setUploading(true);
    try {
      const result = await api.call('uploadFont', { file });
      queryClient.setQueryData(FONTS_QUERY_KEY, result);
      const added = result.fonts.find((font) => font.fileName === file.name) ?? result.fonts.find((font) => !customFonts.includes(font.name));
      if (added) apply('fontFamily', () => ({ fontFamily: added.name }));
      notify('success', t('font.uploaded', { name: added?.name ?? file.name }));
    } catch (error) {
      notify('error', translateError(error, t));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <FormControl size="small" sx={{ flex: 1, minWidth: 0 }}>
          <InputLabel id="editor-font-family">{t('font.family')}</InputLabel>
          <Select
            labelId="editor-font-family"
            label={t('font.family')}
            value={first.fontFamily}
            onChange={(event) => apply('fontFamily', () => ({ fontFamily: event.target.value }))}
          >
            {choices.map((name) => (
              <MenuItem key={name} value={name}>{name}</MenuItem>
            ))}
            {familyKnown ? null : <MenuItem value={first.fontFamily}>{t('font.missing', { name: first.fontFamily })}</MenuItem>}
          </Select>
        </FormControl>
        <input ref={fileInput} type="file" accept=".ttf,.otf" hidden onChange={(event) => void uploadFont(event)} data-testid="editor-font-file" />
        <Button size="small" startIcon={<UploadFile />} disabled={uploading} onClick={() => fileInput.current?.click()}>
          {t('font.upload')}
        </Button>
      </Box>
      <NumberField
        label={t('font.size')}
        value={sizePt}
        min={1}
        max={500}
        step={0.5}
        onCommit={(points) => apply('fontSize', (item) => ({ relativeFontSize: fontSizeToRelative(points, pageSizeOf(pages, item.pageNumber).height) }))}
      />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <ToggleButtonGroup
          size="small"
          value={styles}
          aria-label={t('font.style')}
          onChange={(_, next: string[]) => apply('fontStyle', () => ({ fontStyle: styleOf(next.includes('bold'), next.includes('italic')) }))}
        >
          <ToggleButton value="bold" aria-label={t('font.bold')}><FormatBold fontSize="small" /></ToggleButton>
          <ToggleButton value="italic" aria-label={t('font.italic')}><FormatItalic fontSize="small" /></ToggleButton>
        </ToggleButtonGroup>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={first.textDecoration === 'none' ? null : first.textDecoration}
          aria-label={t('font.decoration')}
          onChange={(_, next: Placeholder['textDecoration'] | null) => apply('textDecoration', () => ({ textDecoration: next ?? 'none' }))}
        >
          <ToggleButton value="underline" aria-label={t('font.underline')}><FormatUnderlined fontSize="small" /></ToggleButton>
          <ToggleButton value="lineThrough" aria-label={t('font.strikethrough')}><StrikethroughS fontSize="small" /></ToggleButton>
        </ToggleButtonGroup>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={first.align}
          aria-label={t('font.align')}
          onChange={(_, next: Placeholder['align'] | null) => next && apply('align', () => ({ align: next }))}
        >
          <ToggleButton value="left" aria-label={t('font.alignLeft')}><FormatAlignLeft fontSize="small" /></ToggleButton>
          <ToggleButton value="center" aria-label={t('font.alignCenter')}><FormatAlignCenter fontSize="small" /></ToggleButton>
          <ToggleButton value="right" aria-label={t('font.alignRight')}><FormatAlignRight fontSize="small" /></ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <TextField
        type="color"
        size="small"
        label={t('font.colour')}
        value={first.fill}
        onChange={(event) => /^#[0-9a-fA-F]{6}$/.test(event.target.value) && apply('fill', () => ({ fill: event.target.value.toLowerCase() }))}
        sx={{ width: 120 }}
      />
    </Box>
  );
}
