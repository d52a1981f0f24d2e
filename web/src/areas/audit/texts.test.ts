import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../../../src/modules/workspace/audit/actions.ts';
import { hasActionText, sentenceKey } from './texts.ts';

describe('sentenceKey', () => {
  it('words a failed sign-in by how it failed: a code, a passkey, single sign-on, else the password', () => {
    expect(sentenceKey('session.sign_in_failed', { reason: 'wrong_code' })).toBe('session.sign_in_failed_code');
    expect(sentenceKey('session.sign_in_failed', { reason: 'passkey_refused' })).toBe('session.sign_in_failed_passkey');
    expect(sentenceKey('session.sign_in_failed', { reason: 'sso_domain' })).toBe('session.sign_in_failed_sso');
    expect(sentenceKey('session.sign_in_failed', { reason: 'wrong_password' })).toBe('session.sign_in_failed');
  });

  it('words a settings change that only turned the two-factor requirement on or off', () => {
    expect(sentenceKey('workspace.settings_changed', { require_two_factor: true })).toBe('workspace.two_factor_required');
    expect(sentenceKey('workspace.settings_changed', { require_two_factor: false, name: 'x' })).toBe('workspace.settings_changed');
  });

  it('words a membership change that deactivated or reactivated the member, and only that', () => {
    expect(sentenceKey('member.updated', { is_active: false, activation: 'deactivated', sessions_ended: 1 })).toBe('member.deactivated');
    expect(sentenceKey('member.updated', { is_active: true, role: 'manager', activation: 'reactivated' })).toBe('member.reactivated');
    // The members form sends is_active on every save; without `activation` nothing was turned off or on.
    expect(sentenceKey('member.updated', { is_active: true, role: 'manager' })).toBe('member.updated');
  });

  it('words a webhook endpoint turned off or on, and other changes as a change', () => {
    expect(sentenceKey('webhook_endpoint.updated', { url: 'https://x.test', changes: ['is_active'], is_active: false })).toBe('webhook_endpoint.turned_off');
    expect(sentenceKey('webhook_endpoint.updated', { url: 'https://x.test', changes: ['is_active'], is_active: true })).toBe('webhook_endpoint.turned_on');
    expect(sentenceKey('webhook_endpoint.updated', { url: 'https://x.test', changes: ['url', 'is_active'], is_active: true })).toBe('webhook_endpoint.updated');
    expect(sentenceKey('webhook_endpoint.updated', { changes: ['is_active'] })).toBe('webhook_endpoint.updated');
  });

  it('has a sentence for every action the server writes (a new one fails here until both languages word it)', () => {
    // German is typed from English and checked complete by web/src/ui/i18n.test.ts, so English suffices here.
    expect(AUDIT_ACTIONS.filter((action) => !hasActionText(action))).toEqual([]);
  });
});
