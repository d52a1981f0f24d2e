import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { permissionLabel, roleLabel } from '../../api/roles.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';

/**
 * The start page: who is signed in, where, with what access, and where to go.
 * (The timer and the week take this place when the time area arrives.)
 */
export function HomePage() {
  const { user, workspace, workspaces } = useWorkspaceSession();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
  const others = workspaces.filter((w) => w.id !== workspace.id);

  return (
    <div className="flex flex-col gap-8">
      {notice && <Alert tone="success">{notice}</Alert>}
      <div>
        <PageHeading title={workspace.name}>Welcome, {user.first_name || name}</PageHeading>
        <p className="mt-2 text-stone-600">
          You are signed in to <span className="font-medium text-stone-800">{workspace.name}</span> as {name} ({user.email}).
        </p>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Your access">
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
            <dt className="text-stone-600">Role</dt>
            <dd className="font-medium text-stone-900">{roleLabel(workspace.role)}</dd>
            <dt className="text-stone-600">Contractor</dt>
            <dd className="text-stone-900">{workspace.is_contractor ? 'Yes' : 'No'}</dd>
            {workspace.role === 'manager' && (
              <>
                <dt className="text-stone-600">Permissions</dt>
                <dd className="text-stone-900">
                  {workspace.permissions.length ? (
                    <ul className="flex flex-col gap-1">
                      {workspace.permissions.map((p) => (
                        <li key={p}>{permissionLabel(p)}</li>
                      ))}
                    </ul>
                  ) : (
                    'None beyond a member’s'
                  )}
                </dd>
              </>
            )}
          </dl>
        </Section>

        <Section title="Settings">
          <ul className="flex flex-col gap-3 text-sm">
            <li>
              <Link href="/settings/profile">Your profile</Link>
              <p className="mt-0.5 text-stone-600">Your name, e-mail address, preferences and where you are signed in.</p>
            </li>
            <li>
              <Link href="/settings/api">API and Developers</Link>
              <p className="mt-0.5 text-stone-600">Your Company ID and API keys.</p>
            </li>
            <li>
              <Link href="/settings/password">{user.has_password ? 'Change your password' : 'Set a password'}</Link>
              <p className="mt-0.5 text-stone-600">
                {user.has_password ? 'The password you sign in with.' : 'You have no password yet: set one to sign in without a link.'}
              </p>
            </li>
          </ul>
        </Section>

        {others.length > 0 && (
          <Section title="Your other workspaces">
            <ul className="flex flex-col gap-2 text-sm">
              {others.map((w) => (
                <li key={w.id} className="flex items-baseline justify-between gap-4">
                  <span className="font-medium text-stone-900">{w.name}</span>
                  <span className="text-stone-600">{roleLabel(w.role)}</span>
                </li>
              ))}
            </ul>
            <p className="mt-4 text-sm text-stone-600">Switch with the workspace menu in the navigation.</p>
          </Section>
        )}
      </div>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-stone-200 bg-white p-5 shadow-xs" aria-labelledby={slug(title)}>
      <h2 id={slug(title)} className="mb-4 text-base font-semibold text-stone-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

const slug = (text: string) => `section-${text.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
