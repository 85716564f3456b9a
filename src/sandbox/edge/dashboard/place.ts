// Where on the dashboard: its path, and the link to one view of it (a filter of its events, an
// event's delivery opened and scrolled to), which its links, its forms and the redirect after a
// button all make. The page checks the filter it is given; a link only carries it. A link carries
// no message: the page's words are its own (routes.ts).
import { FILTER_PARAMETERS } from "../../api/pages/index.ts";

export const DASHBOARD = "/_sandbox/dashboard";

const VIEW_PARAMETERS = [...FILTER_PARAMETERS, "open"] as const;

/** A view of the page: its filter (type, outcome, session), and the event whose delivery is opened (open: its id, its anchor too). */
export type View = Partial<Record<(typeof VIEW_PARAMETERS)[number], string>>;

export function viewUrl(view: View): string {
  const query = new URLSearchParams();
  for (const name of VIEW_PARAMETERS) if (view[name]) query.set(name, view[name]);
  return `${DASHBOARD}${query.size > 0 ? `?${query}` : ""}${view.open ? `#${encodeURIComponent(view.open)}` : ""}`;
}

/** The filter a query or a form carries, as it is. */
export const filterOf = (given: URLSearchParams): View =>
  Object.fromEntries(FILTER_PARAMETERS.flatMap((name) => (given.get(name) ? [[name, given.get(name)!]] : [])));
