/**
 * Breadcrumbs: Home (on home, hovering turns it into "Reload", which refetches the library), the page
 * title, and in the wizard the template and spreadsheet names as steps (the spreadsheet step is not
 * clickable while the template is locked by a password).
 */
import { useState } from 'react';
import { Breadcrumbs, Link, Typography } from '@mui/material';
import HomeIcon from '@mui/icons-material/HomeOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Link as RouterLink, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useWizardDetail } from '../wizard/templateDetail.ts';
import { requestStep, wizardCrumbs } from '../wizard/wizardSlice.ts';
import { pageTitleKey } from './pages.ts';

/** Wizard steps the crumbs lead to (0-based, as the wizard counts). */
const TEMPLATE_STEP = 0;
const SPREADSHEET_STEP = 2;

const crumbSx = { display: 'inline-flex', alignItems: 'center', gap: 0.5, maxWidth: { xs: 120, sm: 220, md: 320 }, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

export default function NavBreadcrumbs({ compact }: { compact: boolean }) {
  const { t } = useTranslation('navbar');
  const { pathname } = useLocation();
  const dispatch = useAppDispatch();
  const queryClient = useQueryClient();
  const templateId = useAppSelector((state) => state.wizard.templateId);
  const isInWizard = useAppSelector((state) => state.wizard.isInWizard);
  const activeStep = useAppSelector((state) => state.wizard.activeStep);
  const wizard = wizardCrumbs({ templateId, isInWizard, activeStep }, useWizardDetail());
  const [hoverHome, setHoverHome] = useState(false);
  const onHome = pathname === '/';
  const titleKey = pageTitleKey(pathname);
  const inWizard = pathname.startsWith('/wizard/');

  const home = onHome ? (
    <Link
      component="button"
      type="button"
      underline="hover"
      color="inherit"
      sx={crumbSx}
      onMouseEnter={() => setHoverHome(true)}
      onMouseLeave={() => setHoverHome(false)}
      onFocus={() => setHoverHome(true)}
      onBlur={() => setHoverHome(false)}
      onClick={() => void queryClient.invalidateQueries()}
      aria-label={t('crumbs.reload')}
    >
      {hoverHome ? <RefreshIcon fontSize="small" /> : <HomeIcon fontSize="small" />}
      {!compact && (hoverHome ? t('crumbs.reload') : t('crumbs.home'))}
    </Link>
  ) : (
    <Link component={RouterLink} to="/" underline="hover" color="inherit" sx={crumbSx} aria-label={t('crumbs.home')}>
      <HomeIcon fontSize="small" />
      {!compact && t('crumbs.home')}
    </Link>
  );

  const crumbs = [home];
  if (inWizard && wizard) {
    crumbs.push(
      <Link key="template" component="button" type="button" underline="hover" color={wizard.activeStep === TEMPLATE_STEP ? 'text.primary' : 'inherit'} sx={crumbSx}
        onClick={() => dispatch(requestStep(TEMPLATE_STEP))} title={wizard.templateName}>
        {wizard.templateName}
      </Link>,
    );
    if (wizard.excelName) {
      crumbs.push(
        wizard.isEncrypted ? (
          <Typography key="excel" color="text.secondary" sx={crumbSx} title={wizard.excelName}>{wizard.excelName}</Typography>
        ) : (
          <Link key="excel" component="button" type="button" underline="hover" color={wizard.activeStep === SPREADSHEET_STEP ? 'text.primary' : 'inherit'} sx={crumbSx}
            onClick={() => dispatch(requestStep(SPREADSHEET_STEP))} title={wizard.excelName}>
            {wizard.excelName}
          </Link>
        ),
      );
    }
  } else if (titleKey) {
    crumbs.push(<Typography key="page" color="text.primary" sx={crumbSx} aria-current="page">{t(titleKey)}</Typography>);
  }

  return (
    <Breadcrumbs aria-label={t('crumbs.label')} maxItems={compact ? 2 : 4} itemsAfterCollapse={1} sx={{ minWidth: 0 }}>
      {crumbs.map((crumb, index) => <span key={index}>{crumb}</span>)}
    </Breadcrumbs>
  );
}
