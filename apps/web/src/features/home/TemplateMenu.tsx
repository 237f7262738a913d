import { useState, type ReactNode } from 'react';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Divider from '@mui/material/Divider';
import MoreVert from '@mui/icons-material/MoreVert';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DriveFileRenameOutlineOutlined from '@mui/icons-material/DriveFileRenameOutlineOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import GridOffOutlined from '@mui/icons-material/GridOffOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import { useTranslation } from 'react-i18next';

export type TemplateMenuAction = 'use' | 'copy' | 'rename' | 'share' | 'export' | 'delete' | 'deleteExcel' | 'history';

interface Props {
  templateName: string;
  hasSpreadsheet: boolean;
  historyOpen: boolean;
  onAction: (action: TemplateMenuAction) => void;
}

/** The per-template menu of the home page (docs/library.md#home-page); arrow keys move, Enter picks, Esc closes. */
export default function TemplateMenu({ templateName, hasSpreadsheet, historyOpen, onAction }: Props) {
  const { t } = useTranslation('home');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  const item = (action: TemplateMenuAction, icon: ReactNode, label: string) => (
    <MenuItem
      key={action}
      onClick={() => {
        setAnchor(null);
        onAction(action);
      }}
    >
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );

  return (
    <>
      <IconButton
        aria-label={t('menu.open', { name: templateName })}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        size="small"
      >
        <MoreVert />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {item('use', <PlayArrowOutlined fontSize="small" />, t('menu.use'))}
        {item('copy', <ContentCopyOutlined fontSize="small" />, t('menu.copy'))}
        {item('rename', <DriveFileRenameOutlineOutlined fontSize="small" />, t('menu.rename'))}
        {item('share', <ShareOutlined fontSize="small" />, t('menu.share'))}
        {item('export', <FileDownloadOutlined fontSize="small" />, t('menu.export'))}
        {item('history', <HistoryOutlined fontSize="small" />, historyOpen ? t('menu.hideHistory') : t('menu.showHistory'))}
        <Divider />
        {hasSpreadsheet && item('deleteExcel', <GridOffOutlined fontSize="small" />, t('menu.deleteExcel'))}
        {item('delete', <DeleteOutlined fontSize="small" color="error" />, t('menu.delete'))}
      </Menu>
    </>
  );
}
