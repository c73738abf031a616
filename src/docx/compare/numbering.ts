import type { DocxPackage } from '../package/package';
import { serializeNode } from '../xml/serialize';
import type { XmlElement } from '../xml/tree';

/**
 * The numbering definitions of a package, for comparing and carrying lists across versions. What
 * a numbering reference means is the abstract definition its w:num points at (levels, formats,
 * indents; without the ids and the nsid/tmpl/tplc stamps Word renews on save) and the num's level
 * overrides. Two versions that number a list alike under different numIds (Word renumbers them
 * when lists are pasted or merged) compare equal; the same numId defined otherwise does not.
 */
export class Numbering {
  private nums: Map<string, XmlElement> | null = null;
  private abstracts: Map<string, XmlElement> | null = null;
  private readonly keys = new Map<string, string>();
  private readonly part: string | undefined;

  constructor(private readonly pkg: DocxPackage) {
    this.part = pkg.storyParts.find((p) => p.role === 'numbering')?.name;
  }

  /** The numbering part's root, if the package has one. */
  get root(): XmlElement | null {
    return this.part ? this.pkg.xml(this.part).root : null;
  }

  /** Something equal across packages exactly when numId `id` defines the same list. */
  key(id: string): string {
    if (!this.part || id === '0') return id;
    let key = this.keys.get(id);
    if (key === undefined) {
      const num = this.num(id);
      const abstract = this.abstractOf(num);
      key = num && abstract ? `${serializeNode(abstract).replace(STAMPS, '')}${num.all('w:lvlOverride').map(serializeNode).join('')}` : `?${id}`;
      this.keys.set(id, key);
    }
    return key;
  }

  num(id: string): XmlElement | undefined {
    this.index();
    return this.nums!.get(id);
  }

  abstractOf(num: XmlElement | undefined): XmlElement | undefined {
    this.index();
    return num ? this.abstracts!.get(num.first('w:abstractNumId')?.attr('w:val') ?? '') : undefined;
  }

  /** The numIds this package defines. */
  ids(): string[] {
    this.index();
    return [...this.nums!.keys()];
  }

  /** Adds a copy of another package's list (`num` and its `abstract`) under fresh ids; returns the new numId. */
  add(num: XmlElement, abstract: XmlElement): string {
    const root = this.root!;
    this.index();
    const next = (values: Iterable<string>): string => String(Math.max(0, ...[...values].map((v) => Number(v) || 0)) + 1);
    const abstractId = next(this.abstracts!.keys());
    const numId = next(this.nums!.keys());
    const a = abstract.cloneDeep();
    a.setAttr('w:abstractNumId', abstractId);
    const n = num.cloneDeep();
    n.setAttr('w:numId', numId);
    n.first('w:abstractNumId')?.setAttr('w:val', abstractId);
    // Abstract definitions come before the nums, nums before w:numIdMacAtCleanup.
    const firstNum = root.first('w:num');
    if (firstNum) root.insertBefore(a, firstNum);
    else root.append(a);
    const cleanup = root.first('w:numIdMacAtCleanup');
    if (cleanup) root.insertBefore(n, cleanup);
    else root.append(n);
    this.abstracts!.set(abstractId, a);
    this.nums!.set(numId, n);
    return numId;
  }

  private index(): void {
    if (this.nums) return;
    const root = this.root;
    this.nums = new Map(root ? root.all('w:num').map((n) => [n.attr('w:numId') ?? '', n]) : []);
    this.abstracts = new Map(root ? root.all('w:abstractNum').map((a) => [a.attr('w:abstractNumId') ?? '', a]) : []);
  }
}

const STAMPS = /<w:(?:nsid|tmpl)\b[^>]*\/>| w:tplc="[^"]*"| w:abstractNumId="[^"]*"| w15:restartNumberingAfterBreak="[^"]*"/g;
