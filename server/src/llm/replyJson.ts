// Reads the JSON out of a model's reply the way real models write it: a <think> block first, prose
// before or after, a ```json fence, trailing commas, single quotes, a tail cut off by the token limit.
// The syntax is mended by jsonrepair; what the JSON means is checked later, against the schema.
import { jsonrepair } from 'jsonrepair';
import { LlmReplyError } from './errors';

export interface ExtractedJson {
  json: unknown;
  /** What had to be mended or cut away, e.g. "a thinking block", "prose around the JSON", "trailing commas". */
  notes: string[];
  /** Characters of thinking (a <think> block) the reply spent before its answer. */
  thinkingChars: number;
}

const THINKING = /<(think|thinking|reasoning|reflection)>[\s\S]*?(<\/\1>|$)/gi;

/** The reply's JSON object, mended where the syntax allows; throws LlmReplyError when there is none. */
export function extractJson(text: string): ExtractedJson {
  const notes: string[] = [];
  let body = text;
  let thinkingChars = 0;
  body = body.replace(THINKING, (block) => {
    thinkingChars += block.length;
    return '';
  });
  // A reply that opens with the end of a thinking block (the server hid its start).
  const closing = /^[\s\S]*?<\/(think|thinking|reasoning)>/i.exec(body);
  if (closing) {
    thinkingChars += closing[0].length;
    body = body.slice(closing[0].length);
  }
  if (thinkingChars > 0) notes.push('a thinking block');
  const fenced = /```[a-z]*\s*([\s\S]*?)(```|$)/i.exec(body);
  if (fenced && fenced[1].includes('{')) body = fenced[1];
  const start = body.search(/[{[]/);
  if (start < 0) throw new LlmReplyError(text.trim() ? `the reply holds no JSON: ${text.trim().slice(0, 120)}` : 'the reply is empty', text);
  const end = closingIndex(body, start);
  const candidate = body.slice(start, end === null ? undefined : end + 1);
  if (body.slice(0, start).trim() || (end !== null && body.slice(end + 1).trim())) notes.push('prose around the JSON');
  try {
    return { json: JSON.parse(candidate), notes, thinkingChars };
  } catch {
    // fall through to the mender
  }
  try {
    const json: unknown = JSON.parse(jsonrepair(candidate));
    notes.push(end === null ? 'a cut-off tail closed' : 'JSON syntax mended');
    return { json, notes, thinkingChars };
  } catch (error) {
    throw new LlmReplyError(`the reply is not JSON (${error instanceof Error ? error.message : String(error)}): ${candidate.slice(0, 120)}`, text);
  }
}

/** Index of the bracket closing the one at `start`, reading strings as strings; null when the text ends first. */
function closingIndex(text: string, start: number): number | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return null;
}
