/** The data grid's own texts (column menu, sorting, row count) in the UI language. */
import { deDE, esES, frFR, zhCN } from '@mui/x-data-grid/locales';
import type { GridLocaleText } from '@mui/x-data-grid';

const LOCALES = { de: deDE, fr: frFR, es: esES, zh: zhCN } as const;

export function gridLocaleText(language: string): Partial<GridLocaleText> | undefined {
  const locale = LOCALES[language.split('-')[0] as keyof typeof LOCALES];
  return locale?.components.MuiDataGrid.defaultProps.localeText;
}
