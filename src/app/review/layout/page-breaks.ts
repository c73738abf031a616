import type { ModelNode } from './annotate';

/**
 * Explicit page breaks (w:br w:type="page") as docx-preview can see them. It starts a new page
 * only at a break that is a child of a child of a body paragraph (a run's, directly under the
 * paragraph: its splitBySection); a break in a run inside an insertion, a hyperlink or a smart
 * tag (`<w:ins><w:r><w:br w:type="page"/></w:r></w:ins>`: a page break typed with changes
 * tracked) was drawn as nothing and the page ran on, where Word and LibreOffice start a page.
 * Deleted breaks stay where they are (a deletion shown struck through is not laid out as a break).
 */
export function isPageBreak(node: ModelNode): boolean {
  return node.type === 'break' && node.break === 'page';
}

/** What holds a paragraph's runs and may be split around a break: everything with children but a run, a deletion, a field or math. */
function isContainer(node: ModelNode): boolean {
  return node.type !== 'run' && node.type !== 'deleted' && node.type !== 'paragraph' && node.type !== 'table' && !node.type.startsWith('mml') && Array.isArray(node.children);
}

/** `node`'s copy holding `children` (a part of it on one side of a break). */
const partOf = (node: ModelNode, children: ModelNode[]): ModelNode => ({ ...node, children });

/**
 * Makes the first page break inside `node` (a run or a container of runs) one of its own
 * children: the run holding it, and every container between, are split in two around it.
 * Answers whether there was one.
 */
function liftInto(node: ModelNode): boolean {
  const children = node.children ?? [];
  for (let j = 0; j < children.length; j++) {
    const child = children[j]!;
    if (isPageBreak(child)) return true;
    if (child.type !== 'run' && !isContainer(child)) continue;
    if (!liftInto(child)) continue;
    // The break is now a child of `child`: `child` splits around it.
    const inner = child.children!;
    const b = inner.findIndex(isPageBreak);
    const parts = [inner.slice(0, b), inner.slice(b + 1)].map((c) => (c.length > 0 ? partOf(child, c) : null));
    node.children = [...children.slice(0, j), ...(parts[0] ? [parts[0]] : []), inner[b]!, ...(parts[1] ? [parts[1]] : []), ...children.slice(j + 1)];
    return true;
  }
  return false;
}

/**
 * A body paragraph's first page break, where it lies deeper than docx-preview looks (see above),
 * lifted to a child of the paragraph's child: the containers around it are split in two.
 * Answers whether one was lifted.
 */
export function liftPageBreak(paragraph: ModelNode): boolean {
  for (const child of paragraph.children ?? []) {
    // Where docx-preview finds a break already: nothing to do.
    if (child.children?.some(isPageBreak)) return false;
    if (isContainer(child) && liftInto(child)) return true;
  }
  return false;
}
