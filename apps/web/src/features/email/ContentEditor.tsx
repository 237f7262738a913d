/**
 * The message body: rich text (TipTap) with a small toolbar (bold, italic, underline, lists, link)
 * and the column-tag menu. Everything works from the keyboard: Tab reaches the toolbar buttons,
 * the editor takes the usual shortcuts (Ctrl+B, Ctrl+I, Ctrl+U, Ctrl+Shift+8 ...).
 * The HTML it produces is the template's `content`; the server sanitises it before sending.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Placeholder from '@tiptap/extension-placeholder';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Divider, FormHelperText, IconButton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatUnderlinedIcon from '@mui/icons-material/FormatUnderlined';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import LinkIcon from '@mui/icons-material/Link';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import ColumnTagMenu from './ColumnTagMenu.tsx';

function LinkDialog({ editor, open, onClose }: { editor: Editor; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('email');
  const [url, setUrl] = useState('');
  // Each opening starts from the link under the cursor (or a blank https://).
  const [openSeen, setOpenSeen] = useState(false);
  if (openSeen !== open) {
    setOpenSeen(open);
    if (open) setUrl((editor.getAttributes('link').href as string | undefined) ?? 'https://');
  }
  const valid = /^(https?:\/\/|mailto:)\S+$/i.test(url.trim()) && url.trim() !== 'https://';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    editor.chain().focus().extendMarkRange('link').setLink({ href: url.trim() }).run();
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="email-link-title">
      <Box component="form" onSubmit={submit}>
        <DialogTitle id="email-link-title">{t('editor.linkTitle')}</DialogTitle>
        <DialogContent>
          <TextField autoFocus fullWidth label={t('editor.linkUrl')} value={url} onChange={(event) => setUrl(event.target.value)} error={url !== '' && !valid} helperText={t('editor.linkHint')} sx={{ mt: 1 }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('editor.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!valid}>{t('editor.linkApply')}</Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

interface Props {
  value: string;
  onChange: (html: string) => void;
  headings: readonly string[];
  error?: string;
  disabled?: boolean;
}

export default function ContentEditor({ value, onChange, headings, error, disabled = false }: Props) {
  const { t } = useTranslation('email');
  const labelId = useId();
  const helperId = useId();
  const [linkOpen, setLinkOpen] = useState(false);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ heading: false, codeBlock: false, code: false, horizontalRule: false, link: { openOnClick: false, autolink: true, defaultProtocol: 'https' } }),
      Placeholder.configure({ placeholder: t('editor.placeholder') }),
    ],
    content: value,
    editable: !disabled,
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
    editorProps: { attributes: { 'aria-labelledby': labelId, 'aria-describedby': helperId, 'aria-multiline': 'true', role: 'textbox', 'data-testid': 'email-content' } },
  });
  const marks = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'), italic: current.isActive('italic'), underline: current.isActive('underline'),
      bullet: current.isActive('bulletList'), ordered: current.isActive('orderedList'), link: current.isActive('link'),
    }),
  });

  // A draft loaded from the server (or reset) replaces the document; typing never comes back here.
  useEffect(() => {
    if (editor.isDestroyed) return;
    const html = editor.isEmpty ? '' : editor.getHTML();
    if (value !== html) editor.commands.setContent(value, { emitUpdate: false });
  }, [value, editor]);
  useEffect(() => editor.setEditable(!disabled, false), [disabled, editor]);

  const button = (name: keyof typeof marks, label: string, Icon: typeof LinkIcon, run: () => void) => (
    <Tooltip title={label} key={name}>
      <span>
        <IconButton
          size="small"
          aria-label={label}
          aria-pressed={marks[name]}
          color={marks[name] ? 'primary' : 'default'}
          disabled={disabled}
          onMouseDown={(event) => event.preventDefault()}
          onClick={run}
        >
          <Icon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );

  return (
    <Box>
      <Typography id={labelId} variant="body2" color={error ? 'error' : 'text.secondary'} sx={{ mb: 0.5 }}>{t('compose.content')} *</Typography>
      <Box sx={{ border: 1, borderColor: error ? 'error.main' : 'divider', borderRadius: 1, '&:focus-within': { borderColor: error ? 'error.main' : 'primary.main', boxShadow: (theme) => `0 0 0 1px ${error ? theme.palette.error.main : theme.palette.primary.main}` } }}>
        <Stack direction="row" role="toolbar" aria-label={t('editor.toolbar')} sx={{ px: 0.5, py: 0.25, alignItems: 'center', flexWrap: 'wrap', borderBottom: 1, borderColor: 'divider' }}>
          {button('bold', t('editor.bold'), FormatBoldIcon, () => editor.chain().focus().toggleBold().run())}
          {button('italic', t('editor.italic'), FormatItalicIcon, () => editor.chain().focus().toggleItalic().run())}
          {button('underline', t('editor.underline'), FormatUnderlinedIcon, () => editor.chain().focus().toggleUnderline().run())}
          <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
          {button('bullet', t('editor.bulletList'), FormatListBulletedIcon, () => editor.chain().focus().toggleBulletList().run())}
          {button('ordered', t('editor.orderedList'), FormatListNumberedIcon, () => editor.chain().focus().toggleOrderedList().run())}
          <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
          {button('link', t('editor.link'), LinkIcon, () => setLinkOpen(true))}
          {marks.link && button('link', t('editor.unlink'), LinkOffIcon, () => editor.chain().focus().extendMarkRange('link').unsetLink().run())}
          <Box sx={{ flex: 1 }} />
          <ColumnTagMenu headings={headings} disabled={disabled} target={t('compose.content')} onPick={(heading) => editor.chain().focus().insertContent(`{{${heading}}}`).run()} />
        </Stack>
        <Box
          sx={{
            px: 1.5, py: 1, minHeight: 180, maxHeight: 420, overflowY: 'auto', cursor: disabled ? 'default' : 'text',
            '& .tiptap': { outline: 'none', minHeight: 160 },
            '& .tiptap p': { my: 0.75 },
            '& .tiptap a': { color: 'primary.main' },
            '& .tiptap p.is-editor-empty:first-of-type::before': { content: 'attr(data-placeholder)', color: 'text.disabled', float: 'left', height: 0, pointerEvents: 'none' },
          }}
          onClick={(event) => event.target === event.currentTarget && editor.commands.focus('end')}
        >
          <EditorContent editor={editor} />
        </Box>
      </Box>
      <FormHelperText id={helperId} error={error !== undefined}>{error ?? t('compose.contentHint')}</FormHelperText>
      <LinkDialog editor={editor} open={linkOpen} onClose={() => setLinkOpen(false)} />
    </Box>
  );
}
