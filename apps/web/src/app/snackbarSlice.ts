/** The global snackbar (docs/web-app.md#snackbar: bottom centre, hides after 4 s; info, error and other types). */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type SnackbarType = 'success' | 'error' | 'info' | 'warning';

export interface SnackbarState {
  open: boolean;
  type: SnackbarType;
  message: string;
  /** Changes with every message, so a repeated message still shows again. */
  key: number;
}

const initialState: SnackbarState = { open: false, type: 'info', message: '', key: 0 };

const snackbarSlice = createSlice({
  name: 'snackbar',
  initialState,
  reducers: {
    showSnackbar(state, action: PayloadAction<{ type: SnackbarType; message: string }>) {
      state.open = true;
      state.type = action.payload.type;
      state.message = action.payload.message;
      state.key += 1;
    },
    hideSnackbar(state) {
      state.open = false;
    },
  },
});

export const { showSnackbar, hideSnackbar } = snackbarSlice.actions;
export default snackbarSlice.reducer;
