const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
const FORM_FIELD = 'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]), textarea, select';

/**
 * True while a reload would lose what someone is typing: a comment or description box holding text, the
 * field being typed in, or a dialog with a form open (a new album's title, a link's settings). Read from the
 * page rather than from each form, so a form added later is covered without telling this module.
 */
export function hasTypedText(doc: Document): boolean {
  for (const box of doc.querySelectorAll('textarea')) if (box.value.trim()) return true;
  const active = doc.activeElement;
  if (active instanceof HTMLInputElement && TEXT_INPUTS.has(active.type) && active.value.trim()) return true;
  if (active instanceof HTMLElement && active.isContentEditable) return true;
  for (const dialog of doc.querySelectorAll('[role="dialog"], [role="alertdialog"]')) if (dialog.querySelector(FORM_FIELD)) return true;
  return false;
}
