// supported_action_types expansion (api-v3.md §4.4): what a client that names versions, groups or types gets.
import { describe, expect, it } from 'vitest';
import { invalidActionTypeParam, supportedActionTypes } from './action-types';

describe('supportedActionTypes', () => {
  it('defaults to latest: every versioned type, cocoon included, but not the tgbtc types', () => {
    const latest = supportedActionTypes(undefined, null);
    expect(latest).toEqual(expect.arrayContaining(['ton_transfer', 'jetton_swap', 'multisig_approve', 'nft_purchase', 'cocoon_client_withdraw']));
    expect(latest.some((t) => t.startsWith('tgbtc_'))).toBe(false);
  });

  it('always includes v1, expands groups, and keeps unknown names as literal types', () => {
    const v1 = supportedActionTypes(['v1'], null);
    expect(v1).toContain('tick_tock');
    expect(v1).not.toContain('nft_purchase');
    const g = supportedActionTypes(['tgbtc', 'my_type'], null);
    expect(g).toEqual(expect.arrayContaining([...v1, 'tgbtc_mint', 'tgbtc_burn_fallback', 'my_type']));
    expect(g).not.toContain('nft_purchase');
  });

  it('X-Actions-Version replaces the parameter', () => {
    expect(supportedActionTypes(['latest'], 'v1')).toEqual(supportedActionTypes(['v1'], null));
    expect(supportedActionTypes(['v1'], 'v3')).toContain('nft_purchase');
  });

  it('names the parameter whose values have characters outside A-Z a-z 0-9 _ .', () => {
    expect(invalidActionTypeParam('action_type', ['nft.v3', 'ton_transfer'])).toBeNull();
    expect(invalidActionTypeParam('exclude_action_type', ['a b'])).toBe('exclude_action_type contains invalid characters');
  });
});
