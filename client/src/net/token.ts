// The tab's operator token, kept in sessionStorage, shared by the town page and the persona editor.
// A `?token=` (or `#token=`, which never reaches a server or a Referer) in the address is remembered for
// the tab and taken out of the address bar, so a reload keeps the role and a copied link does not carry it.

const TOKEN_KEY = 'smalltown-token';

/** The operator token for this tab, or null for a spectator. */
export function takeToken(): string | null {
  const url = new URL(location.href);
  const fromQuery = url.searchParams.get('token');
  const hash = new URLSearchParams(url.hash.slice(1));
  const fromHash = hash.get('token');
  if (fromQuery !== null || fromHash !== null) {
    const given = fromHash ?? fromQuery ?? '';
    if (given.trim()) rememberToken(given);
    url.searchParams.delete('token');
    hash.delete('token');
    url.hash = hash.toString();
    history.replaceState(history.state, '', url.toString());
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/** The tab's token as remembered, without looking at the address. */
export function currentToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** The persona editor's address for this world, carrying the token in the fragment (never sent to a server). */
export function personaEditorUrl(world: string | null): string {
  const token = currentToken();
  return `/personas${world ? `?world=${encodeURIComponent(world)}` : ''}${token ? `#token=${encodeURIComponent(token)}` : ''}`;
}

export function rememberToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token.trim());
}

/** Forgets a token the town refused, so that reloading the plain address joins as a spectator. */
export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}
