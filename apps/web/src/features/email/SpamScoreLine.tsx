/**
 * The spam score line (docs/email.md#spam-score): not calculated, loading, or the score out of 10 in its
 * band — 0-3 high risk (red), 4-6 review (amber), 7-10 good (green) — with the suggestions in a
 * tooltip for high risk and review. A score of 0 counts as not calculated. Any change to the message
 * makes the shown score stale, so it is dropped.
 */
import { useState } from 'react';
import { useStore } from 'react-redux';
import { useTranslation } from 'react-i18next';
import { Box, Button, Chip, CircularProgress, Stack, Tooltip, Typography } from '@mui/material';
import ShieldOutlinedIcon from '@mui/icons-material/ShieldOutlined';
import { SPAM_CATEGORIES, SPAM_SCORE_MAX, spamRating, type SpamScore } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateCode, translateError } from '../../i18n/errors.ts';
import type { EmailState } from './emailSlice.ts';
import { useSaveEmail } from './useEmailSettings.ts';

const COLOR = { highRisk: 'error', review: 'warning', good: 'success' } as const;

type WithEmail = { email: EmailState };

/** What the score depends on: the message's sender, texts and attachments. */
function messageKey(settings: EmailState['settings']): string {
  return JSON.stringify([settings.senderId, settings.fromName, settings.subject, settings.content, settings.replyTo, settings.staticAttachments]);
}

/** The tips per category: each rule's catalogue text in the UI language, else the server's English. */
function Suggestions({ score }: { score: SpamScore }) {
  const { t } = useTranslation(['email', 'errors']);
  const tips = (category: SpamScore['findings'][number]['category']): string[] => {
    const findings = score.findings.filter((finding) => finding.category === category);
    if (findings.length === 0) return score.suggestions[category] ?? [];
    return findings.map((finding, index) => translateCode(finding.code, finding.params, t) || score.suggestions[category]?.[index] || finding.code);
  };
  return (
    <Box sx={{ p: 0.5 }}>
      {SPAM_CATEGORIES.filter((category) => tips(category).length > 0).map((category) => (
        <Box key={category} sx={{ mb: 0.5 }}>
          <Typography variant="subtitle2">{t(`spam.category.${category}`)}</Typography>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {tips(category).map((tip) => <li key={tip}><Typography variant="body2">{tip}</Typography></li>)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

export default function SpamScoreLine({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation(['email', 'errors']);
  const notify = useNotify();
  const save = useSaveEmail();
  const templateId = useAppSelector((state) => state.email.templateId);
  const store = useStore<WithEmail>();
  const message = useAppSelector((state) => messageKey(state.email.settings));
  const [scored, setScored] = useState<{ message: string; score: SpamScore } | null>(null);
  const [loading, setLoading] = useState(false);
  // A score is of the message it was calculated for; any change makes it stale.
  const score = scored?.message === message ? scored.score : null;

  async function calculate() {
    if (!templateId) return;
    setLoading(true);
    try {
      // The server scores the saved message.
      if (!(await save())) return;
      // The message as saved (the server may have normalised what was typed).
      const saved = messageKey(store.getState().email.settings);
      setScored({ message: saved, score: await api.call('calculateSpamScore', { params: { id: templateId } }) });
    } catch (error) {
      notify('error', `${t('spam.failure')} ${translateError(error, t)}`);
    } finally {
      setLoading(false);
    }
  }

  const rating = score ? spamRating(score.spamScore) : null;
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }} data-testid="spam-score">
      <ShieldOutlinedIcon color="action" />
      <Typography variant="body2">{t('spam.title')}</Typography>
      {loading && <><CircularProgress size={16} /><Typography variant="body2">{t('spam.loading')}</Typography></>}
      {!loading && rating === null && <Typography variant="body2" color="text.secondary">{t('spam.notCalculated')}</Typography>}
      {!loading && score && rating && (
        <Tooltip title={rating === 'good' ? '' : <Suggestions score={score} />} describeChild>
          <Chip
            color={COLOR[rating]}
            label={t('spam.score', { score: score.spamScore, max: SPAM_SCORE_MAX, rating: t(`spam.rating.${rating}`) })}
            tabIndex={rating === 'good' ? undefined : 0}
            data-rating={rating}
          />
        </Tooltip>
      )}
      <Button size="small" onClick={() => void calculate()} disabled={disabled || loading}>
        {rating === null ? t('spam.calculate') : t('spam.recalculate')}
      </Button>
    </Stack>
  );
}
