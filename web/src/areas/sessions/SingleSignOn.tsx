import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../api/call.ts';
import { api } from '../../api/client.ts';
import { Alert } from '../../ui/Alert.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { safeNext } from './next.ts';
import { useSessionTexts } from './texts.ts';

/**
 * Single sign-on on the sign-in page (issue 28 item 1): once the workspace is known — by the
 * domain of the address typed into the page's e-mail field (`email`), or by a /sign-in?workspace=<id>
 * link — a "Sign in with <name>" link to the workspace's start route, which sends the browser
 * to its identity provider. A failed sign-in comes back as ?sso_error=<code>, said here.
 */

const SSO_ERRORS = ['state', 'expired', 'denied', 'domain', 'provider', 'unverified', 'deactivated', 'elsewhere'] as const;
type SsoError = (typeof SSO_ERRORS)[number];

const discoverQuery = (query: { email?: string; workspace?: string }) =>
  queryOptions({
    queryKey: ['sso', 'discover', query],
    queryFn: () => call(api.GET('/web/api/sso/discover', { params: { query } })),
    staleTime: 5 * 60_000,
  });

/** A domain worth asking about: something@name.tld. */
const askable = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email.trim());

/** A value once it has stopped changing for `ms` (the address as typed, asked about once typing pauses). */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function SingleSignOn({ email: typed }: { email: string }) {
  const [params] = useSearchParams();
  const t = useSessionTexts();
  const email = useSettled(typed.trim().toLowerCase(), 400);
  const workspace = params.get('workspace') ?? undefined;
  const query = workspace ? { workspace } : askable(email) ? { email } : null;
  const found = useQuery({ ...discoverQuery(query ?? {}), enabled: query !== null });
  const next = safeNext(params.get('next'));
  const ways = query && found.data ? found.data : [];

  return (
    <>
      {ways.length > 0 && (
        <div className="flex flex-col gap-3">
          {ways.map((w) => (
            <a
              key={w.workspace_id}
              href={`/web/api/sso/${encodeURIComponent(w.workspace_id)}/start${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`}
              className={buttonClass('secondary', 'w-full')}
            >
              {t('sso.signInWith', { name: w.name })}
            </a>
          ))}
        </div>
      )}
    </>
  );
}

/** Why a sign-in through the provider failed (`?sso_error=<code>`), at the top of the sign-in page. */
export function SingleSignOnError() {
  const [params] = useSearchParams();
  const t = useSessionTexts();
  const error = params.get('sso_error');
  if (!error) return null;
  return <Alert>{(SSO_ERRORS as readonly string[]).includes(error) ? t(`sso.errors.${error as SsoError}`) : t('sso.errors.provider')}</Alert>;
}
