// How the explorer shows NFT and DNS content: names, images and expiry. Images are never fetched by the
// browser from hosts a contract names: only on-chain `image_data` bytes are shown, and only when their
// magic bytes say they are a raster format the browser decodes inertly (no SVG: it can carry script).

const MAGIC: { type: string; bytes: (number | null)[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  // RIFF????WEBP
  { type: 'image/webp', bytes: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50] },
];

/** The image's MIME type by its first bytes, or null when it is none of PNG, JPEG, GIF, WebP. */
export function imageType(head: Uint8Array): string | null {
  return MAGIC.find((m) => head.length >= m.bytes.length && m.bytes.every((b, i) => b === null || head[i] === b))?.type ?? null;
}

function base64Head(b64: string, bytes: number): Uint8Array | null {
  // 16 base64 characters are 12 bytes: enough for every signature above.
  const chunk = b64.replace(/-/g, '+').replace(/_/g, '/').slice(0, Math.ceil(bytes / 3) * 4);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(chunk)) return null;
  try {
    return Uint8Array.from(atob(chunk), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** A data: URI for on-chain `image_data` (base64, as the index stores it), or null for anything else. */
export function imageDataUri(imageData: string | null | undefined): string | null {
  if (!imageData || !/^[A-Za-z0-9+/]+={0,2}$/.test(imageData)) return null;
  const head = base64Head(imageData, 12);
  const type = head && imageType(head);
  return type ? `data:${type};base64,${imageData}` : null;
}

/** What TEP-64 content says about a token, each field only when it is a non-empty string. */
export function contentDisplay(content: Record<string, string> | null | undefined) {
  const s = (k: string) => (typeof content?.[k] === 'string' && content[k]!.trim() ? content[k] : undefined);
  return { name: s('name'), description: s('description'), uri: s('uri'), image: s('image'), imageData: s('image_data'), domain: s('domain') };
}

/**
 * `attributes` of NFT content ([{trait_type, value}], as marketplaces write it) when the content has
 * them as JSON text; anything else gives no attributes.
 */
export function nftAttributes(content: Record<string, string> | null | undefined): { trait: string; value: string }[] {
  const raw = content?.attributes;
  if (!raw) return [];
  try {
    const list: unknown = JSON.parse(raw);
    if (!Array.isArray(list)) return [];
    return list.flatMap((a: unknown) => {
      if (!a || typeof a !== 'object') return [];
      const { trait_type, value } = a as Record<string, unknown>;
      if (typeof trait_type !== 'string' || (typeof value !== 'string' && typeof value !== 'number')) return [];
      return [{ trait: trait_type, value: String(value) }];
    });
  } catch {
    return [];
  }
}

/**
 * The .ton name a DNS item's content claims (`domain`, else a `name` shaped like one). Content is the
 * issuer's words: callers link it only after dns/records confirms the name belongs to that very item.
 */
export function claimedDomain(content: Record<string, string> | null | undefined): string | undefined {
  const d = contentDisplay(content);
  const candidate = (d.domain ?? d.name)?.trim().toLowerCase();
  return candidate && /^[a-z0-9-]+(\.[a-z0-9-]+)*\.ton$/.test(candidate) ? candidate : undefined;
}

/** A collection's item count: next_item_index, which is -1 for collections that do not number their items (DNS). */
export const itemCount = (nextItemIndex: string) => (nextItemIndex.startsWith('-') ? 'items not numbered' : `${nextItemIndex} items`);

/** A TEP-81 name is held for a year after its last fill-up (dns-item contract: one_year = 365 days). */
export const DNS_TERM_SECONDS = 365 * 24 * 3600;
export const dnsExpiry = (lastFillUpTime: number) => lastFillUpTime + DNS_TERM_SECONDS;
