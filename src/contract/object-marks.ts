/**
 * What the render variant says about an object docx-preview 0.4.1 cannot draw (a chart, a shape,
 * a watermark, an embedded object): a bookmark right before the run that holds it, named
 * `_rlobj_<serial>_<kind>_<width>x<height>_<label>` (size in CSS px, 0 when unknown; label
 * URI-encoded, "_" as %5F so the name splits). docx-preview renders it as `<span id=NAME>`; the
 * app shows a labelled box of that size in the object's place (review/objects.ts).
 */
export const OBJECT_MARK_PREFIX = '_rlobj_';

export type ObjectKind = 'chart' | 'shape' | 'textbox' | 'diagram' | 'watermark' | 'object' | 'picture';

export interface ObjectMark {
  kind: ObjectKind;
  width: number;
  height: number;
  label: string;
}

const encode = (s: string) => encodeURIComponent(s).replace(/_/g, '%5F');

export function objectMarkName(serial: number, mark: ObjectMark): string {
  return `${OBJECT_MARK_PREFIX}${serial}_${mark.kind}_${Math.round(mark.width)}x${Math.round(mark.height)}_${encode(mark.label)}`;
}

export function parseObjectMark(name: string): ObjectMark | null {
  if (!name.startsWith(OBJECT_MARK_PREFIX)) return null;
  const [, kind, size, label] = name.slice(OBJECT_MARK_PREFIX.length).split('_');
  const m = /^(\d+)x(\d+)$/.exec(size ?? '');
  if (!kind || !m || label === undefined) return null;
  try {
    return { kind: kind as ObjectKind, width: Number(m[1]), height: Number(m[2]), label: decodeURIComponent(label) };
  } catch {
    return null;
  }
}
