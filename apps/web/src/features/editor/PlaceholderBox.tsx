/**
 * One placeholder drawn over its page: its column name in its font, size, style and colour, a type
 * icon, and (when selected) resize handles. Pointer down selects (Shift/Ctrl/Cmd adds or removes)
 * and starts a move of the whole selection; the gesture is committed as one undo step on pointer up.
 */
import { memo, type PointerEvent } from 'react';
import { Box, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Placeholder } from '@sheaf/shared';
import { useAppDispatch } from '../../app/hooks.ts';
import { RESIZE_HANDLES, toPixels, type ResizeHandle, type Size } from './geometry.ts';
import { cancelGesture, endGesture, select, startGesture, toggleSelected, updateGesture } from './editorSlice.ts';
import { fontCssStyle } from './fonts.ts';
import { TypeIcon } from './typeIcons.tsx';

interface PlaceholderBoxProps {
  placeholder: Placeholder;
  pagePx: Size;
  selected: boolean;
  /** The current selection (moved together). */
  selection: string[];
  missing: boolean;
  fontFamilyCss: string;
}

const HANDLE_POSITION: Record<ResizeHandle, { left: string; top: string; cursor: string }> = {
  nw: { left: '0%', top: '0%', cursor: 'nwse-resize' },
  n: { left: '50%', top: '0%', cursor: 'ns-resize' },
  ne: { left: '100%', top: '0%', cursor: 'nesw-resize' },
  e: { left: '100%', top: '50%', cursor: 'ew-resize' },
  se: { left: '100%', top: '100%', cursor: 'nwse-resize' },
  s: { left: '50%', top: '100%', cursor: 'ns-resize' },
  sw: { left: '0%', top: '100%', cursor: 'nesw-resize' },
  w: { left: '0%', top: '50%', cursor: 'ew-resize' },
};

/** Follows the pointer from down to up, reporting the offset; onEnd learns whether it moved at all. */
function trackPointer(event: PointerEvent<HTMLElement>, onMove: (dx: number, dy: number) => void, onEnd: (moved: boolean) => void, onCancel: () => void): void {
  const target = event.currentTarget;
  const startX = event.clientX;
  const startY = event.clientY;
  const pointerId = event.pointerId;
  let moved = false;
  target.setPointerCapture(pointerId);
  const move = (moveEvent: globalThis.PointerEvent) => {
    moved ||= moveEvent.clientX !== startX || moveEvent.clientY !== startY;
    onMove(moveEvent.clientX - startX, moveEvent.clientY - startY);
  };
  const finish = (cancelled: boolean) => () => {
    target.removeEventListener('pointermove', move);
    target.removeEventListener('pointerup', up);
    target.removeEventListener('pointercancel', cancel);
    if (target.hasPointerCapture(pointerId)) target.releasePointerCapture(pointerId);
    if (cancelled) onCancel();
    else onEnd(moved);
  };
  const up = finish(false);
  const cancel = finish(true);
  target.addEventListener('pointermove', move);
  target.addEventListener('pointerup', up);
  target.addEventListener('pointercancel', cancel);
}

function PlaceholderBox({ placeholder, pagePx, selected, selection, missing, fontFamilyCss }: PlaceholderBoxProps) {
  const { t } = useTranslation('editor');
  const dispatch = useAppDispatch();
  const box = toPixels(placeholder, pagePx);
  const fontSize = placeholder.relativeFontSize * pagePx.height;
  const { fontWeight, fontStyle } = fontCssStyle(placeholder.fontStyle);
  const label = t('box.label', { column: placeholder.column, page: placeholder.pageNumber });

  const onMove = (dx: number, dy: number) => dispatch(updateGesture({ dx, dy }));
  const onEnd = () => dispatch(endGesture());
  const onCancel = () => dispatch(cancelGesture());

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    if (event.shiftKey || event.ctrlKey || event.metaKey) {
      dispatch(toggleSelected(placeholder.id));
      return;
    }
    const ids = selected ? selection : [placeholder.id];
    if (!selected) dispatch(select(ids));
    dispatch(startGesture({ kind: 'move', ids }));
    trackPointer(event, onMove, (moved) => {
      onEnd();
      // A plain click on one of several selected boxes selects just that one.
      if (!moved && ids.length > 1) dispatch(select([placeholder.id]));
    }, onCancel);
  };

  const onHandleDown = (handle: ResizeHandle) => (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    dispatch(startGesture({ kind: 'resize', ids: [placeholder.id], handle }));
    trackPointer(event, onMove, onEnd, onCancel);
  };

  const content = (
    <Box
      role="button"
      tabIndex={0}
      aria-label={label}
      aria-pressed={selected}
      data-placeholder-id={placeholder.id}
      onPointerDown={onPointerDown}
      onFocus={(event) => {
        // Tab moves between placeholders: keyboard focus selects; a click has already selected.
        if (!selected && event.currentTarget.matches(':focus-visible')) dispatch(select([placeholder.id]));
      }}
      sx={{
        position: 'absolute',
        left: box.left,
        top: box.top,
        width: box.width,
        height: box.height,
        boxSizing: 'border-box',
        border: '1px dashed',
        borderColor: missing ? 'warning.main' : selected ? 'primary.main' : 'info.light',
        borderStyle: selected ? 'solid' : 'dashed',
        bgcolor: missing ? 'rgba(237, 108, 2, 0.14)' : selected ? 'rgba(25, 118, 210, 0.16)' : 'rgba(2, 136, 209, 0.08)',
        cursor: 'move',
        touchAction: 'none',
        outline: 'none',
        '&:focus-visible': { boxShadow: (theme) => `0 0 0 2px ${theme.palette.primary.main}` },
        display: 'flex',
        alignItems: 'flex-start',
        overflow: 'visible',
      }}
    >
      <Box
        aria-hidden
        sx={{
          flex: 1,
          overflow: 'hidden',
          whiteSpace: placeholder.typeSettings.wrap === false ? 'nowrap' : 'normal',
          lineHeight: 1.15,
          fontFamily: fontFamilyCss,
          fontSize,
          fontWeight,
          fontStyle,
          color: placeholder.fill,
          textAlign: placeholder.align,
          textDecoration: placeholder.textDecoration === 'underline' ? 'underline' : placeholder.textDecoration === 'lineThrough' ? 'line-through' : 'none',
          pointerEvents: 'none',
          height: '100%',
        }}
      >
        {placeholder.column}
      </Box>
      <Box aria-hidden sx={{ position: 'absolute', top: -17, left: 6, display: 'flex', bgcolor: missing ? 'warning.main' : 'primary.main', color: 'common.white', borderRadius: '50%', p: '2px', pointerEvents: 'none' }}>
        <TypeIcon type={placeholder.type} sx={{ fontSize: 12 }} />
      </Box>
      {selected && selection.length === 1
        ? RESIZE_HANDLES.map((handle) => (
          <Box
            key={handle}
            aria-hidden
            data-handle={handle}
            onPointerDown={onHandleDown(handle)}
            sx={{
              position: 'absolute', width: 9, height: 9, ml: '-4.5px', mt: '-4.5px', bgcolor: 'common.white', border: '1px solid', borderColor: 'primary.main',
              left: HANDLE_POSITION[handle].left, top: HANDLE_POSITION[handle].top, cursor: HANDLE_POSITION[handle].cursor, touchAction: 'none',
            }}
          />
        ))
        : null}
    </Box>
  );

  return missing ? (
    <Tooltip title={t('box.missingColumn', { column: placeholder.column })} placement="top" arrow describeChild>
      {content}
    </Tooltip>
  ) : (
    content
  );
}

export default memo(PlaceholderBox);
