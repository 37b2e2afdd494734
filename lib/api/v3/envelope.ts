// toncenter v3 errors are a bare {error} with the HTTP status carrying the code.
export function v3Error(status: number, error: string): Response {
  return Response.json({ error }, { status });
}

export const v3Internal = (err: unknown) =>
  v3Error(500, `internal server error: ${err instanceof Error ? err.message : String(err)}`);
