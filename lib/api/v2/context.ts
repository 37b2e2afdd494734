// What a v2 method may use besides its parameters. Grows with the chain access (lite-client pool).
export interface V2Context {
  /** Wall-clock start of the request, for @extra timing. */
  startedAt: number;
}
