import { useEffect, useRef, useState } from 'react';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TAB_SWITCH_DELAY_MS, visibleAccountTabs } from './accountTabs.ts';

interface Props {
  isChildUser: boolean;
}

/** The vertical tab set of the account area; child users do not see users, API keys, integrations or billing. */
export default function AccountTabs({ isChildUser }: Props) {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = visibleAccountTabs(isChildUser);
  const current = tabs.find((tab) => tab.path === pathname)?.path ?? false;
  const [selected, setSelected] = useState<string | false>(current);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The address changed (Back, a link): the selection follows it, in this render rather than the next.
  const [selectedFor, setSelectedFor] = useState(current);
  if (selectedFor !== current) {
    setSelectedFor(current);
    setSelected(current);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Tabs
      orientation="vertical"
      variant="scrollable"
      value={selected}
      aria-label={t('tabs.label')}
      onChange={(_, path: string) => {
        setSelected(path);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => void navigate(path), TAB_SWITCH_DELAY_MS);
      }}
      sx={{ borderRight: 1, borderColor: 'divider', minWidth: 180, '& .MuiTab-root': { alignItems: 'flex-start', textAlign: 'left' } }}
    >
      {tabs.map((tab) => <Tab key={tab.key} value={tab.path} label={t(`tabs.${tab.key}`)} />)}
    </Tabs>
  );
}
