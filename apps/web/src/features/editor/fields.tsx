/**
 * Building blocks of the properties panel: edits that apply to every selected placeholder at once,
 * grouped per field so typing "14" in the size field is one undo step, and a number field that lets
 * people type freely (empty, "1.") while only valid numbers reach the placeholders.
 */
import { useCallback, useState } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';
import type { Placeholder } from '@sheaf/shared';
import { useAppDispatch } from '../../app/hooks.ts';
import { updatePlaceholders } from './editorSlice.ts';

/** Applies `change(placeholder)` to each selected placeholder as one (grouped) undo step. */
export type ApplyEdit = (field: string, change: (placeholder: Placeholder) => Partial<Placeholder>) => void;

export function useApplyEdit(selected: readonly Placeholder[]): ApplyEdit {
  const dispatch = useAppDispatch();
  return useCallback(
    (field, change) => {
      if (selected.length === 0) return;
      const changes = Object.fromEntries(selected.map((item) => [item.id, change(item)]));
      dispatch(updatePlaceholders({ changes, group: `prop:${field}:${selected.map((item) => item.id).join(',')}` }));
    },
    [dispatch, selected],
  );
}

type NumberFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'type'> & {
  value: number;
  onCommit: (value: number) => void;
  min?: number;
  max?: number;
  step?: number;
  integer?: boolean;
};

/** A number input that commits only values within [min, max]; it shows the stored value again on blur. */
export function NumberField({ value, onCommit, min = -Infinity, max = Infinity, step, integer = false, slotProps, ...rest }: NumberFieldProps) {
  const shown = integer ? String(Math.round(value)) : String(Math.round(value * 100) / 100);
  const [draft, setDraft] = useState(shown);
  const [focused, setFocused] = useState(false);
  return (
    <TextField
      {...rest}
      type="number"
      size="small"
      // Outside the field's focus it shows the stored value as it is now (undo, a drag).
      value={focused ? draft : shown}
      onFocus={() => {
        setDraft(shown);
        setFocused(true);
      }}
      onBlur={() => {
        setFocused(false);
        setDraft(shown);
      }}
      onChange={(event) => {
        setDraft(event.target.value);
        const parsed = Number(event.target.value);
        if (event.target.value.trim() === '' || !Number.isFinite(parsed)) return;
        if (parsed < min || parsed > max || (integer && !Number.isInteger(parsed))) return;
        onCommit(parsed);
      }}
      slotProps={{ ...slotProps, htmlInput: { min: Number.isFinite(min) ? min : undefined, max: Number.isFinite(max) ? max : undefined, step, ...(slotProps?.htmlInput as object | undefined) } }}
    />
  );
}

type TextDraftFieldProps = Omit<TextFieldProps, 'value' | 'onChange'> & {
  value: string;
  onCommit: (value: string) => void;
  /** Only values passing this reach the placeholders (the field may hold others while typing). */
  isValid?: (value: string) => boolean;
};

export function TextDraftField({ value, onCommit, isValid = (text) => text.trim().length > 0, ...rest }: TextDraftFieldProps) {
  const [draft, setDraft] = useState(value);
  const [focused, setFocused] = useState(false);
  return (
    <TextField
      {...rest}
      size="small"
      value={focused ? draft : value}
      error={rest.error ?? (focused && !isValid(draft))}
      onFocus={() => {
        setDraft(value);
        setFocused(true);
      }}
      onBlur={() => {
        setFocused(false);
        setDraft(value);
      }}
      onChange={(event) => {
        setDraft(event.target.value);
        if (isValid(event.target.value)) onCommit(event.target.value);
      }}
    />
  );
}
