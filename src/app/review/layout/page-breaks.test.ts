import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { annotateModel, type ModelNode, type WordModel } from './annotate';
import { isPageBreak, liftPageBreak } from './page-breaks';

/** docx-preview's test for a paragraph that ends a page (splitBySection): a break that is a child of one of its children. */
const docxPreviewSeesBreak = (p: ModelNode) => (p.children ?? []).some((c) => (c.children ?? []).some(isPageBreak));

const text = (t: string): ModelNode => ({ type: 'text', text: t });
const run = (...children: ModelNode[]): ModelNode => ({ type: 'run', children });
const pageBreak = (): ModelNode => ({ type: 'break', break: 'page' });

/** The leaves in document order (what is drawn, and the break's place among them). */
function leaves(node: ModelNode): string[] {
  if (!node.children) return [node.type === 'text' ? String(node.text) : node.type === 'break' ? `<${String(node.break)}>` : node.type];
  return node.children.flatMap(leaves);
}

describe('page breaks docx-preview starts a page at', () => {
  it('lifts a page break typed with changes tracked (w:ins around its run) to where docx-preview sees it', () => {
    const p: ModelNode = { type: 'paragraph', children: [run(text('before')), { type: 'inserted', id: '9', children: [run(text('a'), pageBreak(), text('b'))] }] };
    expect(docxPreviewSeesBreak(p)).toBe(false);
    expect(liftPageBreak(p)).toBe(true);
    expect(docxPreviewSeesBreak(p)).toBe(true);
    // The insertion is split around the break, each half still an insertion with its author.
    expect(p.children!.map((c) => c.type)).toEqual(['run', 'inserted']);
    expect(p.children![1]!.children!.map((c) => c.type)).toEqual(['run', 'break', 'run']);
    expect(leaves(p)).toEqual(['before', 'a', '<page>', 'b']);
  });

  it('leaves a deleted break, a break docx-preview sees already and a paragraph without one as they are', () => {
    const deleted: ModelNode = { type: 'paragraph', children: [{ type: 'deleted', children: [run(pageBreak())] }] };
    const plain: ModelNode = { type: 'paragraph', children: [run(text('x'), pageBreak())] };
    const none: ModelNode = { type: 'paragraph', children: [{ type: 'hyperlink', children: [run(text('x'), { type: 'break', break: 'textWrapping' })] }] };
    for (const p of [deleted, plain, none]) {
      const before = JSON.stringify(p);
      expect(liftPageBreak(p)).toBe(false);
      expect(JSON.stringify(p)).toBe(before);
    }
  });

  it('a break at any depth of insertions, hyperlinks and smart tags is lifted with every leaf kept in order', () => {
    const containers = fc.constantFrom('inserted', 'hyperlink', 'smartTag');
    fc.assert(
      fc.property(fc.array(containers, { minLength: 1, maxLength: 4 }), fc.array(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 3 }), fc.array(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 3 }), fc.array(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 2 }), (path, before, after, outside) => {
        let node: ModelNode = run(...before.map(text), pageBreak(), ...after.map(text));
        for (const type of path) node = { type, children: [node] };
        const p: ModelNode = { type: 'paragraph', children: [...outside.map((t) => run(text(t))), node, run(text('end'))] };
        const order = leaves(p);
        expect(liftPageBreak(p)).toBe(true);
        expect(docxPreviewSeesBreak(p)).toBe(true);
        expect(leaves(p)).toEqual(order);
      }),
    );
  });

  it('annotating a body sets w:pageBreakBefore read through the styles a paragraph style is based on, and lifts its breaks', () => {
    const heading: ModelNode = { type: 'paragraph', styleName: 'Heading1', children: [run(text('Title'))] };
    const own: ModelNode = { type: 'paragraph', styleName: 'Heading1', pageBreakBefore: false, children: [] };
    const typed: ModelNode = { type: 'paragraph', children: [{ type: 'inserted', children: [run(pageBreak())] }] };
    const doc = {
      documentPart: { body: { type: 'body', props: {}, children: [heading, own, typed] } },
      stylesPart: { styles: [{ id: 'Heading1', basedOn: 'Chapter' }, { id: 'Chapter', paragraphProps: { pageBreakBefore: true } }] },
      findPartByRelId: () => null,
    } as unknown as WordModel;
    annotateModel(doc);
    expect(heading.pageBreakBefore).toBe(true);
    // Its own w:pageBreakBefore w:val="0" wins over the style's.
    expect(own.pageBreakBefore).toBe(false);
    expect(docxPreviewSeesBreak(typed)).toBe(true);
  });
});
