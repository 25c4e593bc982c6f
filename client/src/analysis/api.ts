// The analysis page's only contact with the server: read-only JSON from /api/analysis (and the world list from /api/worlds) and download
// links to /api/export. The world and window chosen on the page travel in every request.
import type { AnalysisReport, ConversationView, DayEntry, GraphView, WorldListing } from '@protocol/analysis';

export interface Selection {
  /** A world id from the listing; null for the live world. */
  world: string | null;
  from: string;
  to: string;
}

function query(sel: Selection, extra: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams();
  if (sel.world) q.set('world', sel.world);
  if (sel.from) q.set('from', sel.from);
  if (sel.to) q.set('to', sel.to);
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function get<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `${url}: HTTP ${res.status}`);
  return body;
}

export const api = {
  worlds: () => get<WorldListing>('/api/worlds'),
  report: (sel: Selection) => get<AnalysisReport>(`/api/analysis/report${query(sel)}`),
  graph: (sel: Selection) => get<GraphView>(`/api/analysis/graph${query(sel)}`),
  conversations: (sel: Selection, filter: Record<string, string | undefined>) =>
    get<{ total: number; conversations: ConversationView[] }>(`/api/analysis/conversations${query(sel, filter)}`),
  agentDay: (sel: Selection, agent: string, from: string, to: string) =>
    get<{ entries: DayEntry[] }>(`/api/analysis/agent-day${query({ world: sel.world, from, to }, { agent })}`),
  exportUrl: (sel: Selection, what: string) => `/api/export/${what}${query(sel)}`,
};
