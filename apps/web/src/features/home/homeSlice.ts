import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type HomeView = 'grid' | 'list';

export interface HomeState {
  /** The view chosen in this session; null until the user switches (the user's saved view applies). */
  view: HomeView | null;
  search: string;
  /** Templates whose merge history is open. */
  expandedHistory: string[];
}

const initialState: HomeState = { view: null, search: '', expandedHistory: [] };

const homeSlice = createSlice({
  name: 'home',
  initialState,
  reducers: {
    setView(state, action: PayloadAction<HomeView>) {
      state.view = action.payload;
    },
    setSearch(state, action: PayloadAction<string>) {
      state.search = action.payload;
    },
    toggleHistory(state, action: PayloadAction<string>) {
      const id = action.payload;
      state.expandedHistory = state.expandedHistory.includes(id)
        ? state.expandedHistory.filter((open) => open !== id)
        : [...state.expandedHistory, id];
    },
  },
});

export const { setView, setSearch, toggleHistory } = homeSlice.actions;

interface WithHome { home: HomeState }
export const selectHomeView = (state: WithHome): HomeView | null => state.home.view;
export const selectHomeSearch = (state: WithHome): string => state.home.search;
export const selectExpandedHistory = (state: WithHome): string[] => state.home.expandedHistory;

export default homeSlice.reducer;
