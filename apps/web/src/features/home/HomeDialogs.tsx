import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplateSummary } from '@sheaf/shared';
import ConfirmDialog from '../../components/ConfirmDialog.tsx';
import RenameDialog from './RenameDialog.tsx';
import ShareDialog from './ShareDialog.tsx';
import { templateDisplayName } from './templateList.ts';
import type { TemplateActions } from './useTemplateActions.ts';

export type HomeDialog = { kind: 'rename' | 'share' | 'delete' | 'deleteExcel'; template: TemplateSummary };

interface ConfirmProps {
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => Promise<boolean>;
  onClose: () => void;
}

/** A destructive action asked once more; stays open (and busy) until the call has answered. */
function ConfirmDelete({ title, text, confirmLabel, onConfirm, onClose }: ConfirmProps) {
  const { t } = useTranslation('home');
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    await onConfirm();
    // Closed whatever the outcome: the snackbar says what happened.
    onClose();
  };
  return (
    <ConfirmDialog
      open
      destructive
      busy={busy}
      title={title}
      message={text}
      confirmLabel={confirmLabel}
      cancelLabel={t('dialog.cancel')}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    />
  );
}

interface Props {
  dialog: HomeDialog | null;
  onClose: () => void;
  actions: TemplateActions;
}

/** The dialogs the template menu opens: rename, share, delete and delete spreadsheet. */
export default function HomeDialogs({ dialog, onClose, actions }: Props) {
  const { t } = useTranslation('home');
  if (!dialog) return null;
  const { template } = dialog;
  const name = templateDisplayName(template);
  switch (dialog.kind) {
    case 'rename':
      return <RenameDialog key={template.id} template={template} onClose={onClose} onRename={actions.rename} />;
    case 'share':
      return <ShareDialog key={template.id} template={template} onClose={onClose} onShare={actions.share} />;
    case 'delete':
      return (
        <ConfirmDelete
          title={t('delete.title')}
          text={t('delete.text', { name })}
          confirmLabel={t('delete.confirm')}
          onConfirm={() => actions.remove(template)}
          onClose={onClose}
        />
      );
    case 'deleteExcel':
      return (
        <ConfirmDelete
          title={t('deleteExcel.title')}
          text={t('deleteExcel.text', { name, excel: template.excelName ?? '' })}
          confirmLabel={t('deleteExcel.confirm')}
          onConfirm={() => actions.removeExcel(template)}
          onClose={onClose}
        />
      );
  }
}
