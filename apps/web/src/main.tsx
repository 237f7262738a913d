/**
 * Entry: providers (Redux, TanStack Query, MUI theme, i18n), the top-level error boundary, and the
 * background behaviours of docs/web-app.md#background-behaviours (no service worker, version check,
 * chunk-failure reload).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { QueryClientProvider } from '@tanstack/react-query';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { I18nextProvider } from 'react-i18next';
import i18n, { i18nReady } from './i18n/index.ts';
import { installLanguageFont } from './i18n/languageFont.ts';
import App from './app/App.tsx';
import ErrorBoundary from './app/ErrorBoundary.tsx';
import { queryClient } from './app/queryClient.ts';
import { store } from './app/store.ts';
import { theme } from './app/theme.ts';
import { installChunkReload } from './app/background/chunkReload.ts';
import { removeServiceWorkers } from './app/background/serviceWorkers.ts';
import { startVersionCheck } from './app/background/versionCheck.ts';
import { installSessionCleanup } from './features/auth/useAuth.ts';
import { startErrorReporting } from './app/errorReporting/index.ts';
import { api } from './api/client.ts';
import { decodeToken } from './api/session.ts';
import { configQuery } from './api/routeQuery.ts';

async function start(): Promise<void> {
  if (await removeServiceWorkers()) return; // reloading
  installChunkReload();
  installSessionCleanup();
  // Error reports only when the server hands a DSN (GET /config); the SDK's chunk loads only then.
  startErrorReporting({
    dsn: async () => (await queryClient.fetchQuery(configQuery())).sentryDsnWeb,
    release: __APP_VERSION__,
    userId: () => {
      const token = api.session.token();
      const subject = token ? decodeToken(token)?.sub : undefined;
      return typeof subject === 'string' ? subject : undefined;
    },
  });
  installLanguageFont(i18n);
  if (import.meta.env.PROD) startVersionCheck(__BUILD_ID__);
  // The texts are a chunk of their own: render once they are in, so no raw key ever shows.
  await i18nReady;

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={store}>
        <QueryClientProvider client={queryClient}>
          <I18nextProvider i18n={i18n}>
            <ThemeProvider theme={theme}>
              <CssBaseline />
              <ErrorBoundary>
                <App />
              </ErrorBoundary>
            </ThemeProvider>
          </I18nextProvider>
        </QueryClientProvider>
      </Provider>
    </StrictMode>,
  );
}

void start();
