import { describe, expect, it } from 'vitest';
import { claimedDomain, contentDisplay, dnsExpiry, imageDataUri, imageType, itemCount, nftAttributes } from './nft';

const b64 = (bytes: number[], tail = 20) => Buffer.from([...bytes, ...Array.from({ length: tail }, (_, i) => i)]).toString('base64');
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const WEBP = [0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50];

describe('on-chain NFT images', () => {
  it('shows PNG, JPEG, GIF and WebP bytes as a data: URI of their own type', () => {
    expect(imageDataUri(b64(PNG))).toBe(`data:image/png;base64,${b64(PNG)}`);
    expect(imageDataUri(b64([0xff, 0xd8, 0xff, 0xe0]))).toMatch(/^data:image\/jpeg;base64,/);
    expect(imageDataUri(b64([...Buffer.from('GIF89a')]))).toMatch(/^data:image\/gif;base64,/);
    expect(imageDataUri(b64(WEBP))).toMatch(/^data:image\/webp;base64,/);
  });

  it('refuses SVG, HTML, truncated signatures and text that is not base64', () => {
    expect(imageDataUri(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64'))).toBeNull();
    expect(imageDataUri(Buffer.from('<html><body>hi</body></html>').toString('base64'))).toBeNull();
    expect(imageDataUri(Buffer.from(PNG.slice(0, 4)).toString('base64'))).toBeNull();
    expect(imageDataUri(b64([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x41, 0x56, 0x45]))).toBeNull(); // RIFF WAVE
    expect(imageDataUri('iVBORw0KGgo";alert(1)//')).toBeNull();
    expect(imageDataUri('')).toBeNull();
    expect(imageDataUri(undefined)).toBeNull();
  });

  it('reads the type from the first bytes only', () => {
    expect(imageType(Uint8Array.from(PNG))).toBe('image/png');
    expect(imageType(Uint8Array.from([0xff, 0xd8]))).toBeNull();
  });
});

describe('NFT content', () => {
  it('keeps non-empty fields and reads marketplace attributes', () => {
    const c = { name: 'Card #1', description: ' ', attributes: JSON.stringify([{ trait_type: 'Rarity', value: 'rare' }, { trait_type: 'Level', value: 3 }, { value: 'x' }]) };
    expect(contentDisplay(c)).toMatchObject({ name: 'Card #1', description: undefined });
    expect(nftAttributes(c)).toEqual([
      { trait: 'Rarity', value: 'rare' },
      { trait: 'Level', value: '3' },
    ]);
    expect(nftAttributes({ attributes: 'not json' })).toEqual([]);
    expect(nftAttributes({ attributes: '{"a":1}' })).toEqual([]);
    expect(nftAttributes(null)).toEqual([]);
  });

  it('reads the .ton name a DNS item claims, only when it is shaped like one', () => {
    expect(claimedDomain({ name: 'Alice.ton', description: 'x' })).toBe('alice.ton');
    expect(claimedDomain({ domain: 'sub.alice.ton', name: 'whatever' })).toBe('sub.alice.ton');
    expect(claimedDomain({ name: 'Atlas Devnet Cards' })).toBeUndefined();
    expect(claimedDomain({ name: 'alice.ton\u202e' })).toBeUndefined();
    expect(claimedDomain(null)).toBeUndefined();
  });

  it('counts items by next_item_index, except collections that do not number them', () => {
    expect(itemCount('3')).toBe('3 items');
    expect(itemCount('-1')).toBe('items not numbered');
  });

  it('puts a .ton name\'s expiry one year after its last fill-up', () => {
    expect(dnsExpiry(1_700_000_000)).toBe(1_700_000_000 + 31_536_000);
  });
});
