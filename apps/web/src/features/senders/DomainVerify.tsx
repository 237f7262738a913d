/**
 * Step 2 for a domain sender: the DNS records to create, each with copy buttons and its state from
 * the last look-up, a re-check (GET /senders/:id looks them up again) and the 72-hour note.
 */
import { useTranslation } from 'react-i18next';
import { Alert, Box, Chip, IconButton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { DNS_VERIFICATION_HOURS, type DnsRecord, type Sender } from '@sheaf/shared';
import { useNotify } from '../../app/snackbar.tsx';

function CopyCell({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation('senders');
  const notify = useNotify();
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => notify('success', t('dns.copied')),
      () => notify('error', t('dns.copyFailed')),
    );
  };
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', flex: 1, pt: 0.5 }}>{text}</Typography>
      <Tooltip title={t('dns.copy', { what: label })}>
        <IconButton size="small" onClick={copy} aria-label={t('dns.copy', { what: label })}><ContentCopyIcon fontSize="inherit" /></IconButton>
      </Tooltip>
    </Stack>
  );
}

export function DnsRecordsTable({ records }: { records: readonly DnsRecord[] }) {
  const { t } = useTranslation('senders');
  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table size="small" aria-label={t('dns.table')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('dns.type')}</TableCell>
            <TableCell>{t('dns.name')}</TableCell>
            <TableCell>{t('dns.value')}</TableCell>
            <TableCell>{t('dns.status')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {records.map((record) => (
            <TableRow key={`${record.purpose}-${record.name}`}>
              <TableCell sx={{ verticalAlign: 'top' }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>{record.type}</Typography>
                <Typography variant="caption" color="text.secondary">{t(`dns.purpose.${record.purpose}`)}</Typography>
              </TableCell>
              <TableCell sx={{ verticalAlign: 'top', width: '30%', minWidth: 200 }}><CopyCell text={record.name} label={t('dns.name')} /></TableCell>
              <TableCell sx={{ verticalAlign: 'top', minWidth: 220 }}><CopyCell text={record.value} label={t('dns.value')} /></TableCell>
              <TableCell sx={{ verticalAlign: 'top' }}>
                <Chip size="small" label={t(`dns.${record.status}`)} color={record.status === 'success' ? 'success' : 'warning'} variant={record.status === 'success' ? 'filled' : 'outlined'} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export default function DomainVerify({ sender, checking }: { sender: Sender; checking: boolean }) {
  const { t, i18n } = useTranslation('senders');
  const checkedAt = sender.dnsRecords.map((record) => record.checkedAt).filter((value): value is string => value !== null).sort().at(-1);
  return (
    <Stack spacing={2}>
      {sender.isVerified
        ? <Alert severity="success">{t('verify.domainVerified', { email: sender.email })}</Alert>
        : <Typography>{t('verify.domainIntro', { domain: sender.email.split('@')[1] ?? sender.email })}</Typography>}
      <DnsRecordsTable records={sender.dnsRecords} />
      <Box>
        {checkedAt && (
          <Typography variant="body2" color="text.secondary">
            {checking ? t('verify.checking') : t('verify.checkedAt', { time: new Date(checkedAt).toLocaleString(i18n.language) })}
          </Typography>
        )}
        {!sender.isVerified && <Alert severity="info" sx={{ mt: 1 }}>{t('verify.dnsDelay', { hours: DNS_VERIFICATION_HOURS })}</Alert>}
      </Box>
    </Stack>
  );
}
