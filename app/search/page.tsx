import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ChainTextPreview } from '@/components/entity/ChainText';
import { SearchBox } from '@/components/layout/SearchBox';
import { PageTitle } from '@/components/ui/Card';
import type { ParamsOf, ResourceName, ResponseOf } from '@/lib/client/registry';
import { classify, type Candidate } from '@/lib/client/search';
import { serverFetch } from '@/lib/client/server';
import { collectionHref, dnsHref, nftHref } from '@/components/entity/Nft';
import { toUrlSafe } from '@/lib/format/hash';
import type { PageQuery } from '@/lib/http/page-query';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Search' };

interface Choice {
  kind: string;
  label: string;
  href: string;
}

/** A lookup that treats any failure (not found, invalid) as "no match". */
async function get<N extends ResourceName>(name: N, params: ParamsOf<N>): Promise<ResponseOf<N> | undefined> {
  try {
    return await serverFetch(name, params);
  } catch {
    return undefined;
  }
}

const blockChoice = (b: { workchain: number; shard: string; seqno: number }, kind = 'Block'): Choice => ({
  kind,
  label: b.workchain === -1 ? `Masterchain block #${b.seqno}` : `Block ${b.workchain}:${b.shard}:${b.seqno}`,
  href: `/block/${b.workchain}/${b.shard}/${b.seqno}`,
});

async function resolve(c: Candidate): Promise<Choice[]> {
  switch (c.kind) {
    case 'address': {
      const a = await get('detectAddress', { address: c.value });
      return a ? [{ kind: 'Account', label: a.bounceable.b64url, href: `/account/${encodeURIComponent(c.value)}` }] : [];
    }
    case 'hash': {
      const [tx, msg, block] = await Promise.all([
        get('transactions', { hash: c.value, limit: 1 }),
        get('messages', { msg_hash: c.value, limit: 1 }),
        get('blocks', { root_hash: c.value, limit: 1 }),
      ]);
      const out: Choice[] = [];
      for (const t of tx?.transactions ?? []) out.push({ kind: 'Transaction', label: toUrlSafe(t.hash), href: `/tx/${toUrlSafe(t.hash)}` });
      for (const m of msg?.messages ?? []) {
        if (m.in_msg_tx_hash) out.push({ kind: 'Message → receiving transaction', label: toUrlSafe(m.in_msg_tx_hash), href: `/tx/${toUrlSafe(m.in_msg_tx_hash)}` });
        if (m.out_msg_tx_hash) out.push({ kind: 'Message → sending transaction', label: toUrlSafe(m.out_msg_tx_hash), href: `/tx/${toUrlSafe(m.out_msg_tx_hash)}` });
      }
      for (const b of block?.blocks ?? []) out.push(blockChoice(b));
      return out;
    }
    case 'block': {
      const r = await get('blocks', { workchain: c.workchain, shard: c.shard, seqno: c.seqno, limit: 1 });
      return (r?.blocks ?? []).map((b) => blockChoice(b));
    }
    case 'mcSeqno': {
      const r = await get('blocks', { workchain: -1, seqno: c.seqno, limit: 1 });
      return (r?.blocks ?? []).map((b) => blockChoice(b));
    }
    case 'domain': {
      const r = await get('dnsRecords', { domain: c.value });
      return (r?.records ?? []).map((d) => ({ kind: 'Domain', label: d.domain, href: dnsHref(d.domain) }));
    }
    case 'name':
      return byName(c.value);
  }
}

const KIND_LABEL = { jetton: 'Jetton', nft_collection: 'NFT collection', nft_item: 'NFT' } as const;

/** Jettons by symbol or name, NFT collections and items by name (GET /api/v3/search); exact symbols first. */
async function byName(q: string): Promise<Choice[]> {
  const r = await get('tokenSearch', { q, limit: 20 });
  if (!r) return [];
  return r.tokens.map((t) => {
    const friendly = r.address_book[t.address]?.user_friendly ?? t.address;
    const label = t.type === 'jetton' ? [t.symbol, t.name].filter(Boolean).join(' · ') : (t.name ?? friendly);
    const href =
      t.type === 'jetton' ? `/jetton/${encodeURIComponent(friendly)}` : t.type === 'nft_collection' ? collectionHref(t.address, r.address_book) : nftHref(t.address, r.address_book);
    return { kind: KIND_LABEL[t.type], label, href };
  });
}

export default async function SearchPage({ searchParams }: { searchParams: Promise<PageQuery<'/search', string | string[]>> }) {
  const raw = (await searchParams).q;
  const q = (Array.isArray(raw) ? raw[0] : raw)?.slice(0, 2000) ?? '';
  const candidates = classify(q);
  const found = (await Promise.all(candidates.map(resolve))).flat();
  const choices = [...new Map(found.map((c) => [c.href, c])).values()];
  if (choices.length === 1) redirect(choices[0]!.href);
  return (
    <div className="space-y-4">
      <PageTitle>Search</PageTitle>
      <SearchBox id="search-page-box" defaultValue={q} className="max-w-2xl" />
      {!q.trim() ? (
        <p className="text-slate-600 dark:text-slate-400">
          Type an address (any form), a transaction or message hash (hex or base64), a block id (<code>wc:shard:seqno</code>), a masterchain seqno, a{' '}
          <code>ton://transfer/…</code> link, a link from another explorer, a <code>.ton</code> name, a jetton symbol or name, or an NFT or collection name.
        </p>
      ) : choices.length ? (
        <section aria-labelledby="choices">
          <h2 id="choices" className="mb-2 font-semibold">
            “<ChainTextPreview text={q} max={200} />” matches {choices.length} things — choose one
          </h2>
          <ul className="space-y-2" data-testid="search-choices">
            {choices.map((c) => (
              <li key={c.href} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
                <div className="text-xs text-slate-600 dark:text-slate-400">{c.kind}</div>
                <Link href={c.href} className="break-all font-mono text-sm text-brand-600 hover:underline dark:text-brand-500">
                  <ChainTextPreview text={c.label} max={120} />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : (
        <div role="status" className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <h2 className="font-semibold">Nothing found for “<ChainTextPreview text={q} max={200} />”</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {candidates.some((c) => c.kind === 'domain')
              ? 'The index knows no .ton name like this.'
              : candidates.some((c) => c.kind === 'name')
                ? 'No jetton, NFT collection or NFT the index knows has this symbol or name.'
                : candidates.length
                ? 'It looks like an identifier, but the index has nothing with it (yet).'
                : 'This is not an address, hash, block id, name or link we can read.'}
          </p>
        </div>
      )}
    </div>
  );
}
