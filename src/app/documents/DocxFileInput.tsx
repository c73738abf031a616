import type { Ref } from 'react';

/** What the file picker offers: Word documents, by extension and by media type. */
const DOCX_ACCEPT = '.docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * A hidden .docx file picker, opened by a visible button through `ref` (`ref.current.click()`):
 * out of the tab order (the button is what a keyboard reaches) but named for screen readers.
 * The choice is cleared at once, so picking the same file again fires again.
 */
export function DocxFileInput({ ref, label, onFile }: { ref: Ref<HTMLInputElement>; label: string; onFile: (file: File) => void }) {
  return (
    <input
      ref={ref}
      type="file"
      accept={DOCX_ACCEPT}
      className="sr-only"
      tabIndex={-1}
      aria-label={label}
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) onFile(file);
      }}
    />
  );
}
