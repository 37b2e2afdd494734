// toncenter v2 envelopes: {ok:true, result} and {ok:false, code, error} with the same HTTP status.
export function v2Result(result: unknown, status = 200): Response {
  return Response.json({ ok: true, result }, { status });
}

export function v2Error(code: number, error: string): Response {
  return Response.json({ ok: false, code, error }, { status: code });
}

export const v2Internal = (err: unknown) => v2Error(500, err instanceof Error ? err.message : String(err));
