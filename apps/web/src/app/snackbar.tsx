/** The global snackbar and `useNotify()`, the one way features show a short message. */
import { useCallback } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { SNACKBAR_MS } from '@sheaf/shared';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { hideSnackbar, showSnackbar, type SnackbarType } from './snackbarSlice.ts';

export type { SnackbarType } from './snackbarSlice.ts';

export function useNotify(): (type: SnackbarType, message: string) => void {
  const dispatch = useAppDispatch();
  return useCallback((type, message) => dispatch(showSnackbar({ type, message })), [dispatch]);
}

export function GlobalSnackbar() {
  const dispatch = useAppDispatch();
  const { open, type, message, key } = useAppSelector((state) => state.snackbar);
  const close = (_event?: unknown, reason?: string) => {
    if (reason !== 'clickaway') dispatch(hideSnackbar());
  };
  return (
    <Snackbar key={key} open={open} autoHideDuration={SNACKBAR_MS} onClose={close} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert onClose={close} severity={type} variant="filled" sx={{ width: '100%' }} data-testid="snackbar">
        {message}
      </Alert>
    </Snackbar>
  );
}
