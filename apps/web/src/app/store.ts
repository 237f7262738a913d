/** The one client-state store: snackbar, home, wizard, editor and email slices (server state lives in TanStack Query). */
import { configureStore } from '@reduxjs/toolkit';
import snackbar from './snackbarSlice.ts';
import home from '../features/home/homeSlice.ts';
import wizard from '../features/wizard/wizardSlice.ts';
import editor from '../features/editor/editorSlice.ts';
import email from '../features/email/emailSlice.ts';

export function createStore() {
  return configureStore({
    reducer: { snackbar, home, wizard, editor, email },
    // Template details and placeholders are plain JSON; bytes and blobs never go into the store.
    middleware: (getDefault) => getDefault({ serializableCheck: { warnAfter: 128 }, immutableCheck: { warnAfter: 128 } }),
  });
}

export const store = createStore();

export type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
