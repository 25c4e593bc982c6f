// Plain values the page shares with the server. No zod here: the client bundles this module, and zod
// probes `Function('')` on first use, which the page's content security policy refuses.

/** The longest whisper, interview question or injected event, in characters. */
export const MAX_TEXT_CHARS = 500;

/** What the room answers a join with a wrong operator token; the page recognises it by this text. */
export const INVALID_TOKEN_MESSAGE = 'invalid operator token';
