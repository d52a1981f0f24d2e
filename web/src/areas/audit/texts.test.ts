import { describe, expect, it } from 'vitest';
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

  it('has a sentence for the passkey and single sign-on actions', () => {
    for (const action of ['passkey.added', 'passkey.removed', 'sso.configured', 'sso.removed', 'sso.member_joined', 'two_factor.reset', 'session.link_issued']) {
      expect(hasActionText(action), action).toBe(true);
    }
  });
});
