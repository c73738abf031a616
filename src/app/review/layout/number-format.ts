import type { NumberFormat } from '../../../contract/number-text';

export type { NumberFormat } from '../../../contract/number-text';
/** Page and note numbers are written by the contract's rules: the service cites the same labels (docx/pages). */
export { pageNumberText as formatNumber } from '../../../contract/number-text';

/** The format a field's general switch asks for (`PAGE \* roman`), if any. */
export function fieldSwitchFormat(instruction: string): NumberFormat | undefined {
  const m = /\\\*\s*(\w+)/.exec(instruction);
  switch (m?.[1]) {
    case 'roman':
      return 'lowerRoman';
    case 'ROMAN':
      return 'upperRoman';
    case 'alphabetic':
      return 'lowerLetter';
    case 'ALPHABETIC':
      return 'upperLetter';
    case 'Arabic':
      return 'decimal';
    case 'ArabicDash':
      return 'numberInDash';
    default:
      return undefined;
  }
}
