/**
 * Step 4: credits, output options, rows, file name, password protection, the email options
 * (features/email) and Generate or Send; while and after generating, the status or mailing view.
 * Text options are drafts until they are error-free and the field is left; then they are saved to
 * the template.
 */
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Divider, Grid, Stack, Typography } from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { ALL_OUTPUT_ROWS, type OutputRows, type PasswordProtection as Protection, type TemplateOutputSettings } from '@sheaf/shared';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateCode, translateError } from '../../i18n/errors.ts';
import { creditsQuery } from './api.ts';
import CreditsTable, { useCredits } from './CreditsTable.tsx';
import FileNamePattern from './FileNamePattern.tsx';
import MergeStatusView from './MergeStatusView.tsx';
import NotEnoughCreditsDialog from './NotEnoughCreditsDialog.tsx';
import OutputOptions from './OutputOptions.tsx';
import PasswordProtection from './PasswordProtection.tsx';
import RowsSelection from './RowsSelection.tsx';
import { creditsVerdict } from './mergeRules.ts';
import { fileNameProblem, normalizedProtection, passwordProblems, type FieldProblem } from './outputRules.ts';
import { useMergeActions } from './useMergeProgress.ts';
import { outputMutation, showOutputChange, useWizardDetail } from './templateDetail.ts';
import { mailingTriggered, rowSelectionChanged, setAutoStartMerge, sheetBounds } from './wizardSlice.ts';
import EmailOptions from '../email/EmailOptions.tsx';
import MailingView from '../email/MailingView.tsx';
import { SendButtonLabel, SendHelperText } from '../email/SendLabels.tsx';
import FlaggedRowsNotice from '../dataCheck/FlaggedRowsNotice.tsx';
import { useEmailActive, usePrepareEmail } from '../email/useEmailSettings.ts';

const EMPTY_PROTECTION: Protection = { readPassword: '', modifyPassword: '' };
const NO_PROBLEMS: ReturnType<typeof passwordProblems> = {};

export default function Step4Generate() {
  const { t, i18n } = useTranslation(['wizard', 'errors']);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { start } = useMergeActions();
  const template = useWizardDetail();
  const excel = template?.excel ?? null;
  const status = useAppSelector((state) => state.wizard.mailMergeStatus);
  const selection = useAppSelector((state) => state.wizard.rowSelection);
  const count = useAppSelector((state) => state.wizard.rowsToGenerateCount);
  const autoStart = useAppSelector((state) => state.wizard.autoStartMerge);
  const mailingStatus = useAppSelector((state) => state.wizard.mailing.status);
  const emailActive = useEmailActive();
  const prepareEmail = usePrepareEmail();
  // Changes being saved show in this very render: the cache tells its readers a tick later, and a
  // controlled radio or switch would flick back meanwhile (the cache is patched too: showOutputChange).
  const [saving, setSaving] = useState<Partial<TemplateOutputSettings>>({});
  const output = template ? { ...template.output, ...saving } : undefined;
  const [fileName, setFileName] = useState(output?.fileNamePattern ?? '');
  const [protection, setProtection] = useState<Protection>(output?.passwordProtection ?? EMPTY_PROTECTION);
  const [shortfall, setShortfall] = useState<number | null>(null);
  const [checking, setChecking] = useState(false);
  const credits = useCredits(count);
  const sheet = sheetBounds(excel);
  const headings = excel?.headers ?? [];
  const combined = output?.isCombinedOutput ?? false;
  // A Word template makes PDFs or DOCX files; passwords protect PDFs only (docs/word-templates.md#merging).
  const word = template?.templateType === 'sfdt';
  const docxOutput = word && output?.isSfdtPdfOutput === false;
  const message = (problem: FieldProblem | null | undefined) => (problem ? translateCode(problem.code, problem.params, t) : undefined);
  const problems = docxOutput ? NO_PROBLEMS : passwordProblems(protection, combined, headings);
  const fileProblem = fileNameProblem(fileName, combined, headings);
  const hasErrors = problems.readPassword !== undefined || problems.modifyPassword !== undefined || fileProblem !== null;
  const noCredits = credits.data ? creditsVerdict(credits.data, count).kind === 'none' : false;

  /** The settings as they will be used: the saved ones with the drafts on top. */
  const current = (): TemplateOutputSettings | null =>
    output ? { ...output, fileNamePattern: fileName, passwordProtection: normalizedProtection(protection) } : null;

  // Shown at once, put back if the server refuses (templateDetail.ts).
  const { mutateAsync: saveOutput } = useMutation(outputMutation(queryClient));
  async function save(patch: Partial<TemplateOutputSettings>, messages?: { success: string; failure: string }) {
    const change = template ? showOutputChange(template.id, patch, queryClient) : null;
    if (!change) return;
    setSaving((now) => ({ ...now, ...patch }));
    try {
      await saveOutput(change);
      if (messages) notify('success', messages.success);
    } catch (error) {
      notify('error', `${messages?.failure ?? t('output.saveFailure')} ${translateError(error, t)}`);
    } finally {
      // The cache holds the outcome now (the server's copy, or the old value put back); a newer
      // change of the same setting still being saved stays shown.
      setSaving((now) => Object.fromEntries(Object.entries(now).filter(([key, value]) => (patch as Record<string, unknown>)[key] !== value)));
    }
  }

  function commitFileName(value: string) {
    if (!output || value === output.fileNamePattern || fileNameProblem(value, combined, headings)) return;
    void save({ fileNamePattern: value }, { success: t('fileName.saved'), failure: t('fileName.saveFailure') });
  }

  const hasErrorsIn = (value: Protection) => Object.keys(passwordProblems(value, combined, headings)).length > 0;

  function commitProtection() {
    if (!output || hasErrorsIn(protection)) return;
    const next = normalizedProtection(protection);
    if (JSON.stringify(next) === JSON.stringify(output.passwordProtection)) return;
    void save({ passwordProtection: next }, { success: t('password.saved'), failure: t('password.saveFailure') });
  }

  /** Generates every selected row, or with `creditLimit` only the first ones the credits cover. */
  async function generate(creditLimit?: number) {
    const settings = current();
    if (!settings || !template || hasErrors) return;
    // With email on: every email field checked and the settings saved first.
    const email = await prepareEmail();
    if (email === false) return;
    if (creditLimit === undefined) {
      setChecking(true);
      try {
        // Fresh numbers: another tab or a finished merge may have used credits meanwhile.
        const fresh = await queryClient.fetchQuery({ ...creditsQuery(count), staleTime: 0 });
        const verdict = creditsVerdict(fresh, count);
        if (verdict.kind === 'partial') {
          setShortfall(verdict.available);
          return;
        }
        if (verdict.kind === 'none') {
          notify('error', translateCode('merge/insufficient-credits', { available: 0, needed: count }, t));
          return;
        }
      } catch (error) {
        notify('error', translateError(error, t));
        return;
      } finally {
        setChecking(false);
      }
    }
    // Drafts not yet saved go with this merge and stay with the template.
    if (settings.fileNamePattern !== template.output.fileNamePattern) commitFileName(settings.fileNamePattern);
    commitProtection();
    if (email) dispatch(mailingTriggered());
    await start(settings, creditLimit, email ?? undefined);
  }

  // The chosen rows stay with the template like the other output settings: saved shortly after the
  // user stops changing them (typing a row list saves once, not per key).
  const saveRows = useEffectEvent((rows: OutputRows) => void save({ rows }));
  const storedRows = JSON.stringify(output?.rows ?? ALL_OUTPUT_ROWS);
  const hasSheet = sheet !== null;
  useEffect(() => {
    if (!hasSheet || JSON.stringify(selection) === storedRows) return;
    const timer = setTimeout(() => saveRows(selection), 600);
    return () => clearTimeout(timer);
  }, [selection, storedRows, hasSheet]);

  // "Start the merge after upload" (step 3) lands here with the saved options; once per request
  // from step 3 (the flag is cleared at once), with the options as they are then.
  const startRequested = useEffectEvent(() => {
    if (status !== 'initial' || !sheet) return;
    dispatch(setAutoStartMerge(false));
    void generate();
  });
  useEffect(() => {
    if (!autoStart) return undefined;
    // As its own task: generating is what the page does next, not part of showing it.
    const timer = setTimeout(startRequested, 0);
    return () => clearTimeout(timer);
  }, [autoStart]);

  if (!template || !output) return null;
  if (mailingStatus !== 'initial') return <MailingView />;
  if (status !== 'initial') return <MergeStatusView />;
  if (!sheet) return <Alert severity="info">{translateCode('sheet/missing', undefined, t)}</Alert>;

  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h1">{t('generate.title')}</Typography>
      <Grid container spacing={4}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={3} divider={<Divider flexItem />}>
            <CreditsTable toBeUsed={count} />
            <OutputOptions output={output} onChange={(patch) => void save(patch)} word={word} />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={3} divider={<Divider flexItem />}>
            <RowsSelection selection={selection} sheet={sheet} count={count} onChange={(patch) => dispatch(rowSelectionChanged(patch))} />
            <FileNamePattern value={fileName} headings={headings} onChange={setFileName} onCommit={commitFileName} error={message(fileProblem) ?? null} disabled={combined} extension={docxOutput ? '.docx' : '.pdf'} />
            <PasswordProtection
              value={protection}
              errors={{ readPassword: message(problems.readPassword), modifyPassword: message(problems.modifyPassword) }}
              onChange={setProtection}
              onCommit={commitProtection}
              disabled={docxOutput}
              note={word ? t(docxOutput ? 'password.docxNotProtected' : 'password.pdfOnly') : undefined}
            />
          </Stack>
        </Grid>
      </Grid>
      <EmailOptions template={template} firstRow={sheet.firstRow} />
      <Box>
        <Box sx={{ mb: 2 }}><FlaggedRowsNotice sheet={sheet} /></Box>
        {noCredits && <Alert severity="warning" sx={{ mb: 2 }}>{translateCode('merge/insufficient-credits', { available: 0, needed: count }, t)}</Alert>}
        <Button
          variant="contained"
          size="large"
          startIcon={<PlayArrowIcon />}
          disabled={count === 0 || hasErrors || noCredits || checking}
          onClick={() => void generate()}
        >
          {emailActive ? <SendButtonLabel count={count} /> : t('generate.button', { count, formatted: count.toLocaleString(i18n.language) })}
        </Button>
        {emailActive && count > 0 && <SendHelperText count={count} />}
        {count === 0 && <Typography variant="body2" color="error" sx={{ mt: 1 }}>{translateCode('merge/no-rows', undefined, t)}</Typography>}
      </Box>
      <NotEnoughCreditsDialog
        available={shortfall}
        needed={count}
        onCancel={() => setShortfall(null)}
        onGenerateFirst={() => {
          const available = shortfall ?? 0;
          setShortfall(null);
          void generate(available);
        }}
      />
    </Stack>
  );
}
