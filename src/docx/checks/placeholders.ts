import type { CheckParagraph, ViewFinding } from './model';

/**
 * Text left to complete: a bracketed blank or bullet ("[●]", "[•]", "[_____]", "[   ]", "[…]"),
 * a bracketed instruction ("[insert date]", "[include address]", "[to be confirmed]", "[TBC]"),
 * a bracketed name in capitals ("[NAME OF PARTY]"), a template field ("{{buyer_name}}", "«Name»"),
 * and a run of X standing for a figure or a date ("XX", "£XXX", "XX/XX/20XX"). Not a placeholder:
 * a bracketed year or number ("[2024]", "[1]"), a blank signature line ("By: ______"), a word
 * with X in it.
 */
const PATTERNS: readonly RegExp[] = [
  /\[\s*[●•_.…\s-]*[●•_…][●•_.…\s-]*\]/gu,
  /\[\s{2,}\]/gu,
  /\[\s*(?:insert|include|add|enter|specify|complete|confirm|details? of|to be|tbc|tbd|tba|name|date|amount|address|number|drafting note|note to draft|placeholder|●)[^\]\n]{0,120}\]/giu,
  /\[[A-Z][A-Z0-9 ,.'’&/()-]{2,80}\]/gu,
  /\{\{[^{}\n]{0,120}\}\}/gu,
  /«[^«»\n]{1,80}»/gu,
  /(?<![\p{L}\p{N}])(?:[$£€]\s?)?X{2,}(?:[/.,-]X{2,}|[/.-]\d{2,4}|[/.-](?:19|20)X{2})*(?![\p{L}\p{N}])/gu,
  /(?<![\p{L}\p{N}])(?:TBC|TBD|TBA)(?![\p{L}\p{N}])/gu,
];

/** A page's conventional legend in brackets, finished text: "[Signature page follows]", "[Remainder of page intentionally left blank]", "[Reserved]". */
const LEGEND = /^\[\s*(?:(?:the\s+)?(?:remainder of (?:this )?page|signature pages?|this page)[^\]]*|(?:intentionally )?(?:omitted|reserved|left blank)|reserved|intentionally omitted)\s*\.?\]$/iu;

/** What every pattern needs one of: most paragraphs have none, and are passed over at once. */
const MAYBE = /[[{«]|XX|TB[CDA]/;

export function placeholderFindings(paragraphs: readonly CheckParagraph[]): ViewFinding[] {
  const out: ViewFinding[] = [];
  paragraphs.forEach((p, block) => {
    if (p.story === 'comment' || !MAYBE.test(p.text)) return;
    const taken: [number, number][] = [];
    for (const re of PATTERNS) {
      for (const m of p.text.matchAll(re)) {
        const start = m.index;
        const end = start + m[0].length;
        if (taken.some(([s, e]) => start < e && end > s)) continue;
        // "[A-Z…]" in capitals: not a bracketed roman numeral, defined acronym or a short code ("[IV]", "[USD]").
        if (re === PATTERNS[3] && (/^\[[IVXLC]+\]$/.test(m[0]) || !/\s/.test(m[0]) && m[0].length <= 6 || LEGEND.test(m[0]))) continue;
        taken.push([start, end]);
        const place = { block, start, end };
        out.push({
          kind: 'placeholder', term: null, reference: null, at: place, excerpt: m[0],
          message: `“${m[0]}” is a placeholder left to complete.`,
          replaceWith: null, identity: 'place', evidence: [place],
        });
      }
    }
  });
  return out;
}
