// Next.js calls register() once per server process. Node-only start-up lives in lib/boot.ts so the edge
// bundle never sees it. (NEXT_RUNTIME is inlined by Next's compiler; it is not configuration.)
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { boot } = await import('./lib/boot');
    await boot();
  }
}
