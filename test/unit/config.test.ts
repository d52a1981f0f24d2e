import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

/**
 * Settings a typo would otherwise hide until much later (the operator's review of 2026-12-07):
 * an SMTP_URL that is no SMTP URL was logged as "delivery enabled" and failed days later; a
 * REDIS_URL that is no URL looked like Redis being down; PORT 99999 and LOG_LEVEL verbose failed
 * in a library's words. Each is now refused at start, naming the setting (the CLI's exit 2).
 */
describe('settings checked at start', () => {
  it('takes the URLs, levels and ports it documents', () => {
    const config = loadConfig({ SMTP_URL: 'smtps://u:p@smtp.example.com:465', REDIS_URL: 'rediss://cache.example.com:6380', LOG_LEVEL: 'warn', PORT: '65535', TRUST_PROXY: '10.0.0.0/8,fd00::/8' });
    expect(config).toMatchObject({ smtpUrl: 'smtps://u:p@smtp.example.com:465', logLevel: 'warn', port: 65535, trustProxy: ['10.0.0.0/8', 'fd00::/8'], rateLimit: { redisUrl: 'rediss://cache.example.com:6380' } });
    expect(loadConfig({})).toMatchObject({ smtpUrl: undefined, logLevel: 'info', port: 8080, rateLimit: { redisUrl: undefined } });
  });

  it.each([
    [{ SMTP_URL: 'garbage' }, /^SMTP_URL must be a smtp:\/\/ or smtps:\/\/ URL/],
    [{ SMTP_URL: 'http://mail.example.com' }, /^SMTP_URL must be a smtp:\/\/ or smtps:\/\/ URL/],
    [{ REDIS_URL: 'notaurl' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not 'verbose'/],
    [{ PORT: '99999' }, /^PORT must be at most 65535/],
    [{ TRUST_PROXY: '10.0.0.0/99' }, /^TRUST_PROXY must list proxy addresses or CIDR ranges/],
    [{ WEB_DIST: '/nonexistent' }, /^WEB_DIST must be a built web app \(a folder holding index.html\), not \/nonexistent/],
  ])('refuses %o, naming it', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
