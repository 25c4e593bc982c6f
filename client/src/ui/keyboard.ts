// Keyboard shortcuts (listed in the help overlay, ./help.ts). Keys typed into a text field are typing,
// never shortcuts. Esc in a field only leaves the field (the draft stays); the next Esc closes the topmost
// overlay, then the inspector.
import { focusedField } from './dom';

export interface ShortcutActions {
  zoomBy(factor: number): void;
  panBy(dxScreenPx: number, dyScreenPx: number): void;
  showWholeTown(): void;
  toggleAutoFollow(): void;
  togglePause(): void;
  setRate(index: number): void;
  focusFind(): void;
  toggleHelp(): void;
  toggleTools(): void;
  /** The timeline's previous (-1) or next (+1) marker. */
  stepMarker(direction: 1 | -1): void;
  backToLive(): void;
  toggleWorlds(): void;
  /** Closes the world picker, the help or the tools if one is open; false when none was. */
  closeOverlay(): boolean;
  /** Stops following and closes the inspector. */
  closeInspector(): void;
  /** True while a modal dialog (the token dialog) is up: it handles its own keys. */
  modalOpen(): boolean;
}

const PAN_PX = 200;

export function installShortcuts(actions: ShortcutActions): void {
  // A button clicked with the mouse does not take the focus, so Space after a click is still the
  // shortcut (and a click on "Interview" leaves the focus in its field).
  document.addEventListener('mousedown', (e) => {
    if (e.target instanceof Element && e.target.closest('button')) e.preventDefault();
  });
  window.addEventListener('keydown', (e: KeyboardEvent) => {
    if (actions.modalOpen() || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'Escape') {
      const field = focusedField();
      if (field) field.blur();
      else if (!actions.closeOverlay()) actions.closeInspector();
      return;
    }
    if (focusedField() || e.isComposing) return;
    // Space and Enter on a button focused from the keyboard press that button; they are not shortcuts there.
    if ((e.key === ' ' || e.key === 'Enter') && document.activeElement instanceof HTMLButtonElement) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let handled = true;
    if (key === '+' || key === '=') actions.zoomBy(1.2);
    else if (key === '-' || key === '_') actions.zoomBy(1 / 1.2);
    else if (key === '0' || key === 'Home') actions.showWholeTown();
    else if (key === 'a') actions.toggleAutoFollow();
    else if (key === '?') actions.toggleHelp();
    else if (key === ' ') actions.togglePause();
    else if (/^[1-5]$/.test(key)) actions.setRate(Number(key) - 1);
    else if (key === 'f') actions.focusFind();
    else if (key === 't') actions.toggleTools();
    else if (key === '[') actions.stepMarker(-1);
    else if (key === ']') actions.stepMarker(1);
    else if (key === 'l') actions.backToLive();
    else if (key === 'w') actions.toggleWorlds();
    else if (key === 'ArrowLeft') actions.panBy(-PAN_PX, 0);
    else if (key === 'ArrowRight') actions.panBy(PAN_PX, 0);
    else if (key === 'ArrowUp') actions.panBy(0, -PAN_PX);
    else if (key === 'ArrowDown') actions.panBy(0, PAN_PX);
    else handled = false;
    if (handled) e.preventDefault();
  });
}
