/** The app inside its providers: outdated-browser warning, the routes, the global snackbar. */
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import OutdatedBrowserAlert from './background/OutdatedBrowserAlert.tsx';
import { createRouter } from './routes.tsx';
import { GlobalSnackbar } from './snackbar.tsx';

export default function App() {
  const [router] = useState(createRouter);
  return (
    <>
      <OutdatedBrowserAlert />
      <RouterProvider router={router} />
      <GlobalSnackbar />
    </>
  );
}
