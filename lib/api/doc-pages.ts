// Where toncenter serves an API's interactive documentation, Atlas leads a browser to its own reference
// page (app/api-docs/[api]): /api/v2/ and /api/v3/ answer a browser (Accept: text/html) with a redirect
// there and any other client with their JSON, /api/v3/index.html always redirects.

/** The explorer's reference page of an API. */
export const docPage = (api: 'v2' | 'v3') => `/api-docs/${api}`;

/** A browser navigating here (it asks for HTML first); fetch() and API clients ask for JSON or anything. */
export function wantsHtml(req: Request): boolean {
  const accept = req.headers.get('accept') ?? '';
  return /(^|,)\s*text\/html\b/i.test(accept);
}

/** 302 to the reference page; Vary: Accept, since the same URL answers JSON to other clients. */
export function redirectToDocs(req: Request, api: 'v2' | 'v3'): Response {
  return new Response(null, { status: 302, headers: { Location: new URL(docPage(api), req.url).pathname, Vary: 'Accept' } });
}
