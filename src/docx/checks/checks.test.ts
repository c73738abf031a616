import { describe, expect, it } from 'vitest';
import type { CheckKind } from '../../contract/checks';
import { analyseView } from './check';
import type { CheckParagraph } from './model';

/** Body paragraphs from plain strings; "7.3 | text" gives the paragraph the engine label 7.3; "# text" a heading. */
function doc(...lines: string[]): CheckParagraph[] {
  return lines.map((line, i) => {
    const numbered = /^([^|]+) \| (.*)$/.exec(line);
    if (numbered) return { id: `p${i}`, text: numbered[2]!, numbering: numbered[1]!, story: 'body' };
    if (line.startsWith('# ')) return { id: `p${i}`, text: line.slice(2), heading: 1, story: 'body' };
    return { id: `p${i}`, text: line, story: 'body' };
  });
}

function findings(paragraphs: CheckParagraph[], kind?: CheckKind) {
  return analyseView(paragraphs).findings.filter((f) => !kind || f.kind === kind).map((f) => ({ kind: f.kind, term: f.term, reference: f.reference, excerpt: f.excerpt, message: f.message, replaceWith: f.replaceWith }));
}

const PREAMBLE = [
  'This Agreement is made between Northwind Cloud Services, Inc. (the “Supplier”) and Harbor & Lane Logistics Ltd. (the “Customer”).',
  '1 | Definitions',
];

describe('checks: defined terms', () => {
  it('finds a term used as defined but defined nowhere, once per term with its count, in every definition form', () => {
    const paragraphs = doc(...PREAMBLE,
      '1.1 | “Affiliate” means any entity that controls a party. "Business Day" means a day other than a Saturday.',
      '1.2 | The Supplier shall, on each Business Day, report to the Customer and its Affiliates.',
      '1.3 | The Customer may audit the Services (the ‘Audit’) and any Audit shall be at its cost; the Services include the Escrow Agent fees.',
      '1.4 | The Escrow Agent shall hold the Source Code, and the Escrow Agent may release it on each Release Event.',
      '1.5 | The Supplier shall deliver the Source Code as agreed under the Release Event terms and the Consumer Price Index.');
    const undefinedTerms = findings(paragraphs, 'undefined_term');
    expect(undefinedTerms.map((f) => f.term).sort()).toEqual(['Escrow Agent', 'Release Event', 'Services', 'Source Code'].sort());
    expect(undefinedTerms.find((f) => f.term === 'Escrow Agent')!.message).toBe('“Escrow Agent” is used 3 times as a defined term but is defined nowhere in the document.');
  });

  it('does not take headings, sentence starts, run-in headings, quoted speech, statutes, citations, months or the preamble\'s names for terms', () => {
    const paragraphs = doc(...PREAMBLE,
      '# Limitation of Liability',
      'Limitation Of Remedies',
      '2.1 | Payment shall be made in March. Notices under Clause 1 go to the Supplier.',
      '2.2 | Confidentiality. The Customer shall comply with the Data Protection Act 2018 and Schedule 3.',
      '2.3 | The Supplier said “Stop All Work” and Northwind Cloud Services, Inc. agreed; Harbor & Lane Logistics Ltd. did not.',
      '2.4 | The parties meet in New York under Section 2.1 (Payment Terms), Section 2.2 (Payment Terms) and Clause 2.3 (Payment Terms), and nothing disclosed (as a “Risk Factor” or otherwise) limits it.');
    expect(findings(paragraphs).filter((f) => f.kind !== 'broken_cross_reference')).toEqual([]);
  });

  it('finds a definition never used, and a term defined twice', () => {
    const paragraphs = doc(...PREAMBLE,
      '1.1 | “Affiliate” means any entity that controls a party.',
      '1.2 | "Deliverables" means the items in the Specification ("Specification").',
      '1.3 | The Supplier shall deliver the Deliverables to the Customer’s Affiliates in accordance with the Specification.',
      '1.4 | In this clause, “Deliverables” includes documents. “Specification” has the meaning given in clause 1.2; any other “Specification” shall be construed as this one.',
      '1.5 | “Charges” means the fees.');
    expect(findings(paragraphs, 'unused_definition').map((f) => f.term)).toEqual(['Charges']);
    const twice = findings(paragraphs, 'duplicate_definition');
    expect(twice).toEqual([expect.objectContaining({ term: 'Deliverables', message: '“Deliverables” is defined twice, first in clause 1.2.' })]);
  });

  it('finds a misspelt term or party name, and a defined phrase in lower case, each with its fix', () => {
    const paragraphs = doc(
      'This licence is made between Acme Widgets Corporation (the “Licensee”) and Beta Labs (the “Licensor”).',
      '1 | Grant',
      '1.1 | The Licensor grants the Licencee a licence of the Licensed Software. "Confidential Information" means information marked as such.',
      '1.2 | Licencee shall keep the Confidential Information secret and the Licensee shall return the Confidential Information on demand.',
      '1.3 | The Licensee shall protect the confidential information and pay the Licensor. Acme Widgets Corporaton shall sign.',
      '1.4 | The Licensee may disclose Confidential Information to its advisers. The Licensee and the Licensor agree on the Licensed Software.');
    const variants = findings(paragraphs, 'term_variant');
    expect(variants.map((f) => [f.excerpt, f.term, f.replaceWith])).toEqual([
      ['Licencee', 'Licensee', 'Licensee'],
      ['Licencee', 'Licensee', 'Licensee'],
      ['confidential information', 'Confidential Information', 'Confidential Information'],
      ['Acme Widgets Corporaton', 'Acme Widgets Corporation', 'Acme Widgets Corporation'],
    ]);
    // A misspelt term is not also an undefined one.
    expect(findings(paragraphs, 'undefined_term').map((f) => f.term)).toEqual(['Licensed Software']);
  });

  it('keeps plurals and possessives of a defined term as uses of it, not variants', () => {
    const paragraphs = doc(...PREAMBLE,
      '1.1 | “Party” means the Supplier or the Customer. “Service” means the work.',
      '1.2 | Each of the Parties’ obligations and each Party’s Services are set out here, for the Customer’s benefit.');
    expect(findings(paragraphs)).toEqual([]);
  });
});

describe('checks: cross-references and numbering', () => {
  it('finds a citation of a clause, sub-clause, paragraph or schedule the document does not contain', () => {
    const paragraphs = doc(
      '1 | Services',
      '1.1 | The Supplier shall perform the services in Schedule 1 as set out in clause 2.1(b) and Clause 1.2.',
      '1.2 | Subject to Section 14.2, Clauses 1.1 and 1.3, Schedule 3, Exhibit A and paragraph (c) above apply.',
      '2 | Charges',
      '2.1 | The charges are in clause 2.1. Section 409A of the Internal Revenue Code applies.',
      '2.1(a) | first',
      '2.1(b) | second',
      'Schedule 1 - Services');
    expect(findings(paragraphs, 'broken_cross_reference').map((f) => [f.reference, f.message])).toEqual([
      ['Section 14.2', 'Section 14.2 is cited, but the document has no section 14.2.'],
      ['Clauses 1.3', 'Clauses 1.3 is cited, but the document has no clause 1.3.'],
      ['Schedule 3', 'Schedule 3 is cited, but the document has no schedule 3.'],
      ['Exhibit A', 'Exhibit A is cited, but the document has no exhibit A.'],
      ['paragraph (c)', 'paragraph (c) is cited, but the document has no paragraph (c).'],
    ]);
  });

  it('reads manual numbers typed in the text as clauses', () => {
    const paragraphs = doc('1. Services', '1.1 The Supplier shall comply with clause 1.2.', '1.2 The Customer shall pay under clause 1.1.', 'See clause 1.3.');
    expect(findings(paragraphs, 'broken_cross_reference').map((f) => f.reference)).toEqual(['clause 1.3']);
  });

  it('finds numbering that repeats, skips or goes backwards, automatic or typed, and not a new list or a schedule\'s own numbering', () => {
    const paragraphs = doc(
      '1 | One', '2 | Two', '2.1 | Two one', '2.3 | Two three', '4 | Four', '4 | Four again', '6 | Six',
      '(a) | a', '(b) | b', '(d) | d',
      '1. Typed one', '2. Typed two', '4. Typed four',
      'Schedule 1', '1 | Schedule one', '2 | Schedule two');
    expect(findings(paragraphs, 'numbering_out_of_sequence').map((f) => [f.reference, f.message])).toEqual([
      ['2.3', 'Clause 2.3 follows 2.1: the numbering skips 2.'],
      ['4', 'Clause 4 follows 2: the numbering skips 3.'],
      ['4', 'Clause 4 is numbered the same as the one before it.'],
      ['6', 'Clause 6 follows 4: the numbering skips 5.'],
      ['(d)', 'Paragraph (d) follows (b): the numbering skips c.'],
      ['4.', 'Clause 4. follows 2.: the numbering skips 3.'],
    ]);
  });

  it('reads (i) after (h) as a letter and (i), (ii), (iii) as roman numerals', () => {
    const letters = doc(...'abcdefghij'.split('').map((c) => `(${c}) | ${c}`));
    const romans = doc('(i) | one', '(ii) | two', '(iii) | three', '(iv) | four', '(v) | five');
    expect(findings(letters, 'numbering_out_of_sequence')).toEqual([]);
    expect(findings(romans, 'numbering_out_of_sequence')).toEqual([]);
  });
});

describe('checks: placeholders', () => {
  it('finds every form of text left to complete, and not bracketed years, numbers or signature lines', () => {
    const paragraphs = doc(
      'Dated [●] between [NAME OF PARTY] and [_____], effective [insert date].',
      'The fee is £XX per hour, payable by XX/XX/20XX to {{buyer_name}}; the cap is TBC. [   ]',
      'In [2024] under note [1], SECTION IV, By: ________ Name: Maxx Exxon [USD] [IV].');
    expect(findings(paragraphs, 'placeholder').map((f) => f.excerpt)).toEqual(['[●]', '[NAME OF PARTY]', '[_____]', '[insert date]', '£XX', 'XX/XX/20XX', '{{buyer_name}}', 'TBC', '[   ]']);
  });

  // Issue 35, precision on real contracts: each false friend below was a finding before its rule.
  describe('false friends found in real contracts', () => {
    it('a party named in the opening and defined again in the definitions list is one definition; two in the body are still two', () => {
      const opening = 'This Agreement is made between Acme Partners LLC (the “General Partner”) and Beta Capital LLC (the “Fund Manager”).';
      const paragraphs = doc(opening, '1 | Definitions',
        '“General Partner” means Acme Partners LLC or any replacement general partner appointed under clause 1.',
        '1.1 | The General Partner and the Fund Manager shall act.',
        '1.2 | The fee (the “Holdback Sum”) is held; the Holdback Sum is paid and the refund (the “Holdback Sum”) follows.');
      expect(findings(paragraphs, 'duplicate_definition').map((f) => f.term)).toEqual(['Holdback Sum']);
    });

    it('a term defined by reference (“described in”, “set forth in”) is defined; a tax authority\'s instrument by its kind is no term', () => {
      const paragraphs = doc(...PREAMBLE,
        '1.1 | The Customer elects to have the “Safe Harbor” described in the proposed Revenue Procedure set forth in Notice 2005-43 (the “IRS Notice”) apply.',
        '1.2 | The Supplier shall amend this clause 1.2 so that the Safe Harbor, the IRS Notice and the Revenue Procedure apply, and each Safe Harbor election is made.',
        '1.3 | The “Closing Date” as defined in the Purchase Agreement is the day the Supplier pays.',
        '1.4 | On the Closing Date the Customer shall pay.');
      expect(findings(paragraphs).filter((f) => f.kind !== 'broken_cross_reference')).toEqual([]);
    });

    it('a defined phrase in lower case used as the ordinary phrase is no variant: “any applicable law”, “permitted by applicable law”, “a limited partner … the limited partner”', () => {
      const uses = Array.from({ length: 9 }, (_, i) => `1.${i + 2} | The Limited Partner shall comply with Applicable Law under clause ${i + 1}.`);
      const paragraphs = doc(...PREAMBLE, '1.1 | “Applicable Law” means ERISA. “Limited Partner” means a person admitted to the Fund.', ...uses,
        '2 | To the extent permitted by applicable law, and subject to any applicable law, the Supplier may act.',
        '3 | A rule that applies to a limited partner of a partnership may be avoided by the insulation of the limited partner from the business.',
        '4 | The Supplier shall inform the limited partner.');
      expect(findings(paragraphs, 'term_variant').map((f) => [f.excerpt, f.replaceWith])).toEqual([['limited partner', 'Limited Partner']]);
    });

    it('letters after a roman-numbered list under the same parent are letters: (a) (b) (c) (d) after (i) (ii)', () => {
      const paragraphs = doc(...PREAMBLE,
        '(i) | the first roman item;', '(ii) | the second roman item;',
        '(a) | the first lettered item;', '(b) | the second;', '(c) | the third;', '(d) | the fourth;', '(f) | the sixth.');
      expect(findings(paragraphs, 'numbering_out_of_sequence').map((f) => f.message)).toEqual(['Paragraph (f) follows (d): the numbering skips e.']);
    });

    it('a legend in capitals that quotes a word is no definition: “INTERESTS” does not define Interest a second time', () => {
      const paragraphs = doc(...PREAMBLE,
        '1.1 | “Interest” means a partnership interest in the Fund held by the Customer.',
        '“INTERESTS” IN THE FUND HAVE NOT BEEN REGISTERED UNDER ANY LAW.',
        '1.2 | The Supplier shall hold each Interest for the Customer.');
      expect(findings(paragraphs, 'duplicate_definition')).toEqual([]);
      // An acronym in capitals still defines: “SLA” twice is a duplicate.
      const acronyms = doc(...PREAMBLE, '1.1 | “SLA” means the service levels.', '1.2 | “SLA” means the schedule of service levels.', '1.3 | The Supplier shall meet the SLA.');
      expect(findings(acronyms, 'duplicate_definition').map((f) => f.term)).toEqual(['SLA']);
    });

    it('an institution by its name is no undefined term: “the Institutional Limited Partners Association”, “the Financial Conduct Authority”', () => {
      const paragraphs = doc(...PREAMBLE,
        '1.1 | The Supplier shall follow the guidelines of the Institutional Limited Partners Association and report to the Financial Conduct Authority.',
        '1.2 | The Customer adopts the Institutional Limited Partners Association template, and the Financial Conduct Authority rules bind the Supplier.',
        '1.3 | Any change to the Institutional Limited Partners Association guidance or the Financial Conduct Authority handbook applies; the Escrow Agent and the Escrow Agent may act.');
      expect(findings(paragraphs, 'undefined_term').map((f) => f.term)).toEqual(['Escrow Agent']);
    });

    it('a page legend in brackets is finished text, not a placeholder: “[Signature page follows]”, “[Remainder of page intentionally left blank]”', () => {
      const paragraphs = doc(...PREAMBLE, '[SIGNATURE PAGE FOLLOWS]', '[Remainder of page intentionally left blank]', '1.1 | [Reserved]', '1.2 | The fee is [AMOUNT IN WORDS].');
      expect(findings(paragraphs, 'placeholder').map((f) => f.excerpt)).toEqual(['[AMOUNT IN WORDS]']);
    });

    it('citations that mostly miss say the numbering was not read, not that the clauses are gone; one slip among many found is still found', () => {
      const labels = ['2', '2.1', '2.2', '3', '3.1', '3.2', '4', '4.1', '4.2', '5', '5.1', '5.2'];
      const numbered = labels.map((l) => `${l} | Clause ${l} text.`);
      const slip = doc(...PREAMBLE, ...numbered, `6 | As set out in ${labels.map((l) => `Section ${l}`).join(', ')} and Section 9.4.`);
      expect(findings(slip, 'broken_cross_reference').map((f) => f.reference)).toEqual(['Section 9.4']);
      const unread = doc(...PREAMBLE, ...numbered, '6 | As set out in Section 14.7.2, Section 14.7.3, Section 20.5, Section 18.1, Section 13.6 and Section 2.1, and Schedule 4.');
      expect(findings(unread, 'broken_cross_reference').map((f) => f.reference)).toEqual(['Schedule 4']);
    });
    it('a term defined with an aside in parentheses is used without it: “Majority (or other specified percentage) in Interest”', () => {
      const paragraphs = doc(...PREAMBLE,
        '1.1 | “Majority (or other specified percentage) in Interest” means a resolution of the Customer.',
        '1.2 | The Supplier may act with the consent of a Majority in Interest, and a Majority in Interest may waive it, as may a Majority in Interest of the Customer.');
      expect(findings(paragraphs).filter((f) => f.kind === 'unused_definition' || f.kind === 'undefined_term')).toEqual([]);
    });

    it('a citation by a roman numeral or a letter is no term: “Title I of ERISA”, three times', () => {
      const paragraphs = doc(...PREAMBLE,
        '1.1 | Each plan subject to Title I of ERISA, and each plan that is like one subject to Title I of ERISA, and any other plan under Title I of ERISA.');
      expect(findings(paragraphs, 'undefined_term')).toEqual([]);
    });

    it('“schedule to”, “schedules or” and a tax form’s “Schedule K-1” cite no schedule of this document; “Schedule 4” does', () => {
      const paragraphs = doc(...PREAMBLE,
        '1.1 | The schedules to this Agreement, and any schedule or annex, form part of it.',
        '1.2 | The Supplier shall send Internal Revenue Service Form 1065, Schedule K-1 (or such successor form), and each Schedule K-1 (Form 1065), as set out in Schedule 4.');
      expect(findings(paragraphs, 'broken_cross_reference').map((f) => f.reference)).toEqual(['Schedule 4']);
    });
    it('a defined phrase in lower case naming the role in general is no variant: “the general partner of the Fund”', () => {
      const uses = Array.from({ length: 4 }, (_, i) => `1.${i + 2} | The General Partner shall act under clause ${i + 1}.`);
      const paragraphs = doc(...PREAMBLE, '1.1 | “General Partner” means the manager named in the Schedule.', ...uses,
        '2 | If the General Partner is no longer the general partner of the Fund, the Customer may act; the general partner shall then resign.');
      expect(findings(paragraphs, 'term_variant').map((f) => f.excerpt)).toEqual(['general partner']);
    });
    it('a term with a sign the words do not keep is used where it is written: “US$” in “US$100”', () => {
      const paragraphs = doc(...PREAMBLE, '1.1 | “US$” means the lawful currency of the United States.', '1.2 | The Customer shall pay US$100 to the Supplier.',
        '1.3 | “R&D Costs” means costs of research.');
      expect(findings(paragraphs, 'unused_definition').map((f) => f.term)).toEqual(['R&D Costs']);
    });
    it('a definition that describes its term in lower case is no variant: “Subscription Agreement” means the subscription agreement…', () => {
      const uses = Array.from({ length: 4 }, (_, i) => `1.${i + 2} | Each Subscription Agreement binds clause ${i + 1}.`);
      const paragraphs = doc(...PREAMBLE, '1.1 | “Subscription Agreement” means the subscription agreement signed by the Customer.', ...uses,
        '2 | The Supplier keeps the subscription agreement.');
      expect(findings(paragraphs, 'term_variant').map((f) => f.excerpt)).toEqual(['subscription agreement']);
      expect(findings(paragraphs, 'term_variant')).toHaveLength(1);
    });
  });
});
