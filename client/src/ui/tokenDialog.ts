// The operator token dialog: shown when the town refuses a token (a stale one after a restart, a typo),
// with two ways on, and by the 🔑 button to become an operator. Never a blank page.
import { el } from './dom';

export type TokenDialogKind = 'refused' | 'enter';

const DIALOG_ID = 'token-dialog';
const REFUSED_TEXT = 'The town refused the operator token this tab was given. The server may have restarted with a new token: '
  + 'it prints the token at start-up. You can watch as a spectator, or enter the current token.';
const ENTER_TEXT = 'Operators can pause the town, change its speed, interview and whisper to agents, inject events and add agents. '
  + 'The token is printed when the server starts.';

export function tokenDialogOpen(): boolean {
  return document.getElementById(DIALOG_ID) !== null;
}

/** Resolves to the token typed, or null to watch as a spectator. */
export function askForToken(kind: TokenDialogKind): Promise<string | null> {
  document.getElementById(DIALOG_ID)?.remove();
  return new Promise((resolve) => {
    const input = el('input', { type: 'password', name: 'token', autocomplete: 'off', placeholder: 'operator token', required: true });
    input.setAttribute('aria-label', 'operator token');
    const done = (token: string | null) => {
      dialog.remove();
      resolve(token);
    };
    const form = el('form', { className: 'token-form', onsubmit: (e: Event) => {
      e.preventDefault();
      if (input.value.trim()) done(input.value.trim());
    } }, input, el('button', { type: 'submit', className: 'primary', textContent: kind === 'refused' ? 'Enter another token' : 'Use this token' }));
    const spectator = el('button', { type: 'button', className: 'spectator', textContent: kind === 'refused' ? 'Continue as spectator' : 'Stay a spectator' });
    spectator.addEventListener('click', () => done(null));
    const dialog = el('div', { id: DIALOG_ID, role: 'dialog' },
      el('div', { className: 'token-box' },
        el('h2', { textContent: kind === 'refused' ? 'This operator token was not accepted' : 'Operate the town' }),
        el('p', { textContent: kind === 'refused' ? REFUSED_TEXT : ENTER_TEXT }),
        form,
        el('p', {}, spectator)));
    dialog.setAttribute('aria-modal', 'true');
    dialog.setAttribute('aria-label', 'operator token');
    dialog.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        done(null);
      }
    });
    document.body.append(dialog);
    input.focus();
  });
}
