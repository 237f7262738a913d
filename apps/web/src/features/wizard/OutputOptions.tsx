/**
 * Output options of docs/merging.md#output-options: combined or separate documents, keep or flatten form
 * fields, leave or repair the PDF, placeholders only or PDF plus placeholders, compress or not. Each
 * change is saved to the template at once (the parent does the saving). A plan that watermarks says so
 * here.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Stack, Switch, Typography } from '@mui/material';
import type { TemplateOutputSettings } from '@sheaf/shared';
import { configQuery } from '../../api/routeQuery.ts';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import { planWatermark } from './watermarkNotice.ts';

type Flags = Pick<TemplateOutputSettings, 'isCombinedOutput' | 'isKeepFormOutput' | 'isOnlyPlaceholdersOutput' | 'isTryRepair' | 'isCompressedOutput' | 'isSfdtPdfOutput'>;
type Switches = Exclude<keyof Flags, 'isSfdtPdfOutput'>;

interface OutputOptionsProps {
  output: Flags;
  onChange: (patch: Partial<Flags>) => void;
  disabled?: boolean;
  /** A Word template (docs/word-templates.md#merging): PDF or DOCX documents; the PDF-template options do not apply. */
  word?: boolean;
}

export default function OutputOptions({ output, onChange, disabled = false, word = false }: OutputOptionsProps) {
  const { t } = useTranslation('wizard');
  const me = useCurrentUser();
  const config = useQuery(configQuery());
  const watermark = planWatermark(me.data?.billingPlan, config.data?.edition);
  const toggle = (key: Switches, label: string, hint: string) => (
    <FormControlLabel
      control={<Switch checked={output[key]} onChange={(event) => onChange({ [key]: event.target.checked })} disabled={disabled} />}
      label={<span>{label}<Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>{hint}</Typography></span>}
      sx={{ alignItems: 'flex-start', '& .MuiSwitch-root': { mt: -0.5 } }}
    />
  );
  return (
    <Stack spacing={2}>
      <Typography variant="subtitle1" component="h2">{t('output.title')}</Typography>
      {watermark && <Alert severity="info" data-testid="plan-watermark">{t('output.watermark', { text: watermark })}</Alert>}
      <FormControl disabled={disabled}>
        <FormLabel id="wizard-output-kind">{t('output.kind')}</FormLabel>
        <RadioGroup
          aria-labelledby="wizard-output-kind"
          value={output.isCombinedOutput ? 'combined' : 'separate'}
          onChange={(event) => onChange({ isCombinedOutput: event.target.value === 'combined' })}
        >
          <FormControlLabel value="separate" control={<Radio />} label={t('output.separate')} />
          <FormControlLabel value="combined" control={<Radio />} label={t('output.combined')} />
        </RadioGroup>
      </FormControl>
      {word && (
        <FormControl disabled={disabled}>
          <FormLabel id="wizard-output-format">{t('output.format')}</FormLabel>
          <RadioGroup
            aria-labelledby="wizard-output-format"
            value={output.isSfdtPdfOutput === false ? 'docx' : 'pdf'}
            onChange={(event) => onChange({ isSfdtPdfOutput: event.target.value === 'pdf' })}
          >
            <FormControlLabel value="pdf" control={<Radio />} label={t('output.formatPdf')} />
            <FormControlLabel value="docx" control={<Radio />} label={t('output.formatDocx')} />
          </RadioGroup>
        </FormControl>
      )}
      {!word && <PdfTemplateOptions output={output} onChange={onChange} disabled={disabled} toggle={toggle} />}
    </Stack>
  );
}

/** The options of PDF templates only: what goes into the documents, form fields, repair, compression. */
function PdfTemplateOptions({ output, onChange, disabled, toggle }: Required<Pick<OutputOptionsProps, 'output' | 'onChange' | 'disabled'>> & { toggle: (key: Switches, label: string, hint: string) => ReactNode }) {
  const { t } = useTranslation('wizard');
  return (
    <>
      <FormControl disabled={disabled}>
        <FormLabel id="wizard-output-content">{t('output.content')}</FormLabel>
        <RadioGroup
          aria-labelledby="wizard-output-content"
          value={output.isOnlyPlaceholdersOutput ? 'placeholders' : 'pdf'}
          onChange={(event) => onChange({ isOnlyPlaceholdersOutput: event.target.value === 'placeholders' })}
        >
          <FormControlLabel value="pdf" control={<Radio />} label={t('output.pdfAndPlaceholders')} />
          <FormControlLabel value="placeholders" control={<Radio />} label={t('output.onlyPlaceholders')} />
        </RadioGroup>
      </FormControl>
      {toggle('isKeepFormOutput', t('output.keepForm'), t('output.keepFormHint'))}
      {toggle('isTryRepair', t('output.repair'), t('output.repairHint'))}
      {toggle('isCompressedOutput', t('output.compress'), t('output.compressHint'))}
    </>
  );
}
