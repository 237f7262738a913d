/**
 * Page geometry as a person sees the page: the crop box (clipped to the media box), turned by the
 * page's /Rotate. Placeholders live in that visual space; one `cm` maps it onto user space.
 */
export type Rect = [x0: number, y0: number, x1: number, y1: number];
export type Matrix = [a: number, b: number, c: number, d: number, e: number, f: number];
export type Rotation = 0 | 90 | 180 | 270;

export interface PageGeometry {
  mediaBox: Rect;
  /** Crop box clipped to the media box. */
  cropBox: Rect;
  rotation: Rotation;
  /** Visual width and height in points (swapped for 90 and 270). */
  width: number;
  height: number;
  /** Maps visual space (origin bottom-left, y up) to the page's default user space. */
  visualToUser: Matrix;
}

export function normaliseRect(rect: readonly number[]): Rect {
  const [a = 0, b = 0, c = 612, d = 792] = rect;
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

export function normaliseRotation(degrees: number): Rotation {
  const quarter = Math.round(degrees / 90);
  return ((((quarter % 4) + 4) % 4) * 90) as Rotation;
}

export function pageGeometry(mediaBox: Rect, cropBox: Rect | undefined, rotateDegrees: number): PageGeometry {
  const crop = cropBox ? intersect(cropBox, mediaBox) : mediaBox;
  const rotation = normaliseRotation(rotateDegrees);
  const [x0, y0, x1, y1] = crop;
  const cropWidth = x1 - x0;
  const cropHeight = y1 - y0;
  const turned = rotation === 90 || rotation === 270;
  return {
    mediaBox,
    cropBox: crop,
    rotation,
    width: turned ? cropHeight : cropWidth,
    height: turned ? cropWidth : cropHeight,
    visualToUser: visualToUserMatrix(crop, rotation),
  };
}

/** Viewers turn the page clockwise by /Rotate; this is the inverse, from what they show to user space. */
function visualToUserMatrix([x0, y0, x1, y1]: Rect, rotation: Rotation): Matrix {
  switch (rotation) {
    case 0:
      return [1, 0, 0, 1, x0, y0];
    case 90:
      return [0, 1, -1, 0, x1, y0];
    case 180:
      return [-1, 0, 0, -1, x1, y1];
    case 270:
      return [0, -1, 1, 0, x0, y1];
  }
}

function intersect(a: Rect, b: Rect): Rect {
  const rect: Rect = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  // A crop box outside the media box is meaningless; viewers fall back to the media box.
  return rect[2] > rect[0] && rect[3] > rect[1] ? rect : b;
}

export function invert([a, b, c, d, e, f]: Matrix): Matrix {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/** The bounding rectangle of `rect` transformed by `matrix`. */
export function transformRect([a, b, c, d, e, f]: Matrix, [x0, y0, x1, y1]: Rect): Rect {
  const xs = [a * x0 + c * y0 + e, a * x1 + c * y0 + e, a * x0 + c * y1 + e, a * x1 + c * y1 + e];
  const ys = [b * x0 + d * y0 + f, b * x1 + d * y0 + f, b * x0 + d * y1 + f, b * x1 + d * y1 + f];
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
