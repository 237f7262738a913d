/** Material theme: a calm blue primary, soft surfaces, 200 ms transitions (docs/limits.md#timing-in-the-web-app). */
import { createTheme, responsiveFontSizes } from '@mui/material/styles';

/**
 * Whoever asks their system for less motion gets none (WCAG 2.3.3): menus, dialogs and pages appear at
 * once (MUI's transitions all go through `transitions.create`) and buttons do not ripple.
 */
const reducedMotion = typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

export const theme = responsiveFontSizes(
  createTheme({
    palette: {
      mode: 'light',
      primary: { main: '#2f5d8a', light: '#5b86b5', dark: '#1f3f60', contrastText: '#ffffff' },
      // Every colour a chip, badge or outlined label writes with (or on) reaches WCAG AA's 4.5:1 against
      // white and the page background: MUI's default info (#0288d1) and warning (#ed6c02) do not.
      secondary: { main: '#3f7267' },
      info: { main: '#0369a1' },
      warning: { main: '#b45309' },
      background: { default: '#f5f7fa', paper: '#ffffff' },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans SC", sans-serif',
      h1: { fontWeight: 600 },
      h2: { fontWeight: 600 },
      h3: { fontWeight: 600 },
      h4: { fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    transitions: { duration: { standard: 200, short: 200, shorter: 150 }, ...(reducedMotion ? { create: () => 'none' } : {}) },
    components: {
      MuiButtonBase: { defaultProps: { disableRipple: reducedMotion } },
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiTooltip: { defaultProps: { arrow: true, slotProps: { transition: { timeout: 100 } } } },
      MuiAppBar: { defaultProps: { elevation: 0, color: 'inherit' } },
      MuiTextField: { defaultProps: { fullWidth: true } },
      // An unselected toggle's text (MUI: 54% black) is 4.3:1 on the page background; 60% reaches 4.5:1.
      MuiToggleButton: { styleOverrides: { root: ({ theme }) => ({ color: theme.palette.text.secondary }) } },
    },
  }),
);
