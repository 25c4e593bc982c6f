// Small DOM helpers shared by the panels.

/** Creates an element with properties and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}

const NOT_TEXT_INPUTS = new Set(['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file', 'image', 'hidden']);

/** Whether an element takes typed text (a text input, a textarea, a select, an editable element). */
export function isTextField(e: Element | null): e is HTMLElement {
  if (!e) return false;
  if (e instanceof HTMLInputElement) return !NOT_TEXT_INPUTS.has(e.type);
  return e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement || (e instanceof HTMLElement && e.isContentEditable);
}

/** The text field that has focus, if any: while there is one, keys are typing, not shortcuts. */
export function focusedField(): HTMLElement | null {
  const active = document.activeElement;
  return isTextField(active) ? active : null;
}

/** Sets an element's text only when it differs: writing the same text still replaces its text node, which lays the page out again. */
export function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}
