/** A fetch that records each request and answers with the next canned response: no network. */
// @ts-nocheck

export function recordedFetch(...responses: Array<{ status: number; body?: unknown; type?: string }>) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request.clone());
    const next = responses.shift();
    if (!next) throw new Error(`unexpected request ${request.method} ${request.url}`);
    return new Response(next.body === undefined ? null : JSON.stringify(next.body), {
      status: next.status,
      headers: { "Content-Type": next.type ?? "application/json" },
    });
  };
  return { fetch, requests };
}
