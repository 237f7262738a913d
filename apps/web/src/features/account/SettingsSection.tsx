import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

interface Props {
  title: string;
  description?: string;
  children: ReactNode;
}

/** One titled block of the account page; the title labels the region for assistive technology. */
export default function SettingsSection({ title, description, children }: Props) {
  const id = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: description ? 0.5 : 2 }}>{title}</Typography>
      {description && <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>{description}</Typography>}
      {children}
    </Paper>
  );
}
