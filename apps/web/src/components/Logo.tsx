/** The Sheaf mark: a page with lines, in the primary colour. */
import { Box, Typography } from '@mui/material';

export default function Logo({ size = 28, withName = true }: { size?: number; withName?: boolean }) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, color: 'primary.main' }}>
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path d="M9 8h11l4 4v12H9z" fill="#fff" />
        <path d="M12 15h9M12 19h9M12 23h6" stroke="currentColor" strokeWidth="1.6" />
      </svg>
      {withName && (
        <Typography component="span" sx={{ fontWeight: 700, fontSize: size * 0.7, letterSpacing: 0.2, color: 'text.primary' }}>
          Sheaf
        </Typography>
      )}
    </Box>
  );
}
