import { OBJECT_MARK_PREFIX, parseObjectMark } from '../../contract/object-marks';
import './objects.css';

/**
 * Every object docx-preview could not draw (a chart, shape, text box, diagram, embedded object,
 * watermark) shown as a labelled box of its own size, from the bookmark the render variant put
 * before its run (contract/object-marks.ts): the empty box docx-preview left (a DrawingML
 * drawing's div, a VML shape's svg) when there is one, so it keeps its place and float, else a
 * new box. The label is CSS (attr(data-object-label)), so the text of the draft stays the text of the
 * draft. A watermark is faint rotated text over its page rather than a box. Runs on
 * docx-preview's output before layout.
 */
export function showObjects(root: HTMLElement): void {
  for (const span of root.querySelectorAll<HTMLElement>(`span[id^="${OBJECT_MARK_PREFIX}"]`)) {
    const mark = parseObjectMark(span.id);
    if (!mark) continue;
    const run = span.nextElementSibling;
    // docx-preview's empty box for a DrawingML object (a div of its size, floated or placed as
    // the file says). A watermark is never boxed; a VML shape's empty svg cannot carry a label.
    const empty = run instanceof HTMLElement && mark.kind !== 'watermark' ? [...run.querySelectorAll<HTMLElement>(':scope > div')].find((el) => !el.classList.contains('rl-object') && !el.querySelector('img, svg')) : undefined;
    let box: HTMLElement;
    if (empty) box = empty;
    else {
      box = document.createElement('span');
      span.after(box);
    }
    if (!empty && run instanceof HTMLElement) for (const svg of run.querySelectorAll<SVGElement>(':scope > div > svg:not(:has(foreignObject, image))')) svg.style.display = 'none';
    box.classList.add('rl-object', `rl-object-${mark.kind}`);
    box.setAttribute('data-object-label', mark.label);
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', mark.label);
    const style = box.style;
    // Of the object's own size; never nothing (an object of unknown size gets a line for its label).
    style.width = mark.width > 0 ? `${mark.width}px` : '';
    style.height = mark.height > 0 ? `${mark.height}px` : '';
    if (mark.kind === 'watermark') style.setProperty('--rl-watermark-size', `${Math.max(24, Math.min(120, mark.width / Math.max(4, mark.label.length) * 1.6))}px`);
  }
}
