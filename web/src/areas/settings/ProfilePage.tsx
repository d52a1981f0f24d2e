import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, formErrors } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import {
  ownSessionsQuery,
  profileQuery,
  useEndSession,
  useRequestEmailChange,
  useSignOutElsewhere,
  useUpdateProfile,
  type OwnSession,
  type Preferences,
  type Profile,
} from './profile-api.ts';
import { SettingsSection } from './SettingsSection.tsx';
import { browserName } from './user-agent.ts';

const LANGUAGES = [
  { id: 'en', label: 'English' },
  { id: 'de', label: 'Deutsch (German)' },
];
const DATE_FORMATS = [
  { id: 'YYYY-MM-DD', label: '2025-01-31' },
  { id: 'DD.MM.YYYY', label: '31.01.2025' },
  { id: 'DD/MM/YYYY', label: '31/01/2025' },
  { id: 'MM/DD/YYYY', label: '01/31/2025' },
];
const DURATION_FORMATS = [
  { id: 'h:mm', label: '1:30 (hours and minutes)' },
  { id: 'decimal', label: '1.50 (decimal hours)' },
];
const THEMES = [
  { id: 'system', label: 'As the device is set' },
  { id: 'light', label: 'Light' },
  { id: 'dark', label: 'Dark' },
];

/** Settings → Profile: the signed-in person's own name, e-mail address, password, preferences and sessions. */
export function ProfilePage() {
  const query = useQuery(profileQuery);
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <PageHeading>Profile</PageHeading>
        <p className="mt-2 text-sm text-stone-600">Your name, e-mail address, password and preferences, the same in every workspace you belong to.</p>
      </div>
      {query.isError ? (
        <Alert>{describeError(query.error).message}</Alert>
      ) : !query.data ? (
        <div aria-busy="true" className="h-[40rem] animate-pulse rounded-lg border border-stone-200 bg-stone-50">
          <span className="sr-only">Loading your profile…</span>
        </div>
      ) : (
        <>
          <NameSection profile={query.data} />
          <EmailSection profile={query.data} />
          <PasswordSection hasPassword={query.data.has_password} />
          <PreferencesSection preferences={query.data.preferences} />
          <SessionsSection />
        </>
      )}
    </div>
  );
}

function NameSection({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const [saved, setSaved] = useState(false);
  const { fieldErrors, summary } = formErrors(update.error, ['first_name', 'last_name']);
  return (
    <SettingsSection id="section-name" title="Name" description="How invoices, invitations and your teammates show you.">
      <Form
        validationErrors={fieldErrors}
        onSubmit={(event) => {
          const f = fieldsOf(event);
          setSaved(false);
          if (update.isPending) return;
          update.mutate({ first_name: f.first_name.trim(), last_name: f.last_name.trim() }, { onSuccess: () => setSaved(true) });
        }}
      >
        {summary && <Alert>{summary}</Alert>}
        {saved && <Alert tone="success">Your name is saved.</Alert>}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField name="first_name" label="First name" defaultValue={profile.first_name} autoComplete="given-name" isRequired maxLength={255} />
          <TextField name="last_name" label="Last name" defaultValue={profile.last_name} autoComplete="family-name" maxLength={255} />
        </div>
        <div>
          <Button type="submit" isPending={update.isPending}>
            Save name
          </Button>
        </div>
      </Form>
    </SettingsSection>
  );
}

function EmailSection({ profile }: { profile: Profile }) {
  const change = useRequestEmailChange();
  const { user } = useSession();
  // A new key empties the form once a link is on its way.
  const [sent, setSent] = useState(0);
  const fields = ['email', 'current_password'];
  const { fieldErrors, summary } = formErrors(change.error, fields);
  return (
    <SettingsSection
      id="section-email"
      title="E-mail address"
      description={
        <>
          You sign in with <span className="font-medium text-stone-900">{profile.email}</span>. A new address changes only once you open the link
          sent to it.
        </>
      }
    >
      <div className="flex flex-col gap-5">
        {profile.pending_email && (
          <Alert tone="info" title="Waiting for your confirmation">
            <p>
              We sent a link to <span className="font-medium">{profile.pending_email}</span>. Open it within 24 hours to use that address; until
              then you keep {profile.email}.
            </p>
          </Alert>
        )}
        {summary && <Alert>{summary}</Alert>}
        <Form
          key={sent}
          validationErrors={fieldErrors}
          onSubmit={(event) => {
            const { email, current_password } = fieldsOf(event);
            if (change.isPending) return;
            change.mutate(
              { email: email.trim(), ...(profile.has_password ? { current_password } : {}) },
              { onSuccess: () => setSent((n) => n + 1) },
            );
          }}
        >
          <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField name="email" type="email" label="New e-mail address" autoComplete="email" isRequired maxLength={320} />
            {profile.has_password && (
              <TextField
                name="current_password"
                type="password"
                label="Current password"
                description="To confirm it is you."
                autoComplete="current-password"
                isRequired
              />
            )}
          </div>
          <div>
            <Button type="submit" isPending={change.isPending}>
              Send confirmation link
            </Button>
          </div>
        </Form>
      </div>
    </SettingsSection>
  );
}

function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  return (
    <SettingsSection id="section-password" title="Password">
      <p className="text-sm text-stone-600">
        {hasPassword ? 'Changing your password signs you out everywhere else. ' : 'You have no password yet: set one to sign in without a link. '}
        <Link href="/settings/password">{hasPassword ? 'Change your password' : 'Set a password'}</Link>
      </p>
    </SettingsSection>
  );
}

function PreferencesSection({ preferences }: { preferences: Preferences }) {
  const update = useUpdateProfile();
  const [saved, setSaved] = useState(false);
  const { summary } = formErrors(update.error, []);
  return (
    <SettingsSection id="section-preferences" title="Preferences" description="The language, dates, durations and colours Sheaf shows you.">
      <Form
        onSubmit={(event) => {
          const f = fieldsOf(event);
          setSaved(false);
          if (update.isPending) return;
          update.mutate(
            {
              language: f.language as Preferences['language'],
              date_format: f.date_format as Preferences['date_format'],
              duration_format: f.duration_format as Preferences['duration_format'],
              theme: f.theme as Preferences['theme'],
            },
            { onSuccess: () => setSaved(true) },
          );
        }}
      >
        {summary && <Alert>{summary}</Alert>}
        {saved && <Alert tone="success">Your preferences are saved.</Alert>}
        <div className="grid gap-5 sm:grid-cols-2">
          <Select name="language" label="Language" options={LANGUAGES} defaultSelectedKey={preferences.language} />
          <Select name="date_format" label="Dates" options={DATE_FORMATS} defaultSelectedKey={preferences.date_format} />
          <Select name="duration_format" label="Durations" options={DURATION_FORMATS} defaultSelectedKey={preferences.duration_format} />
          <Select name="theme" label="Theme" options={THEMES} defaultSelectedKey={preferences.theme} />
        </div>
        <div>
          <Button type="submit" isPending={update.isPending}>
            Save preferences
          </Button>
        </div>
      </Form>
    </SettingsSection>
  );
}

const when = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const at = (iso: string) => when.format(new Date(iso));

function SessionsSection() {
  const query = useQuery(ownSessionsQuery);
  const elsewhere = useSignOutElsewhere();
  const end = useEndSession();
  const others = (query.data ?? []).filter((s) => !s.current);
  const error = elsewhere.error ?? end.error;
  return (
    <SettingsSection id="section-sessions" title="Where you are signed in" description="Sign out of a browser you no longer use, or of every one but this.">
      <div className="flex flex-col gap-4">
        {error && <Alert>{describeError(error).message}</Alert>}
        {elsewhere.isSuccess && others.length === 0 && <Alert tone="success">You are signed out everywhere else.</Alert>}
        {query.isError ? (
          <Alert>{describeError(query.error).message}</Alert>
        ) : !query.data ? (
          <p className="text-sm text-stone-600" aria-busy="true">
            Loading your sessions…
          </p>
        ) : (
          <ul className="divide-y divide-stone-200 rounded-md border border-stone-200" aria-label="Sessions">
            {query.data.map((s) => (
              <SessionRow key={s.id} session={s} onEnd={() => end.mutate(s.id)} ending={end.isPending && end.variables === s.id} />
            ))}
          </ul>
        )}
        <div>
          <Button variant="secondary" isDisabled={others.length === 0} isPending={elsewhere.isPending} onPress={() => elsewhere.mutate()}>
            Sign out everywhere else
          </Button>
        </div>
      </div>
    </SettingsSection>
  );
}

function SessionRow({ session, onEnd, ending }: { session: OwnSession; onEnd: () => void; ending: boolean }) {
  const name = browserName(session.user_agent);
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={session.current ? `${name}, this browser` : name}>
      <div className="min-w-0 text-sm">
        <p className="font-medium text-stone-900">
          {name}
          {session.current && <span className="ml-2 rounded-full bg-teal-50 px-2 py-0.5 text-xs font-medium text-teal-900">This browser</span>}
        </p>
        <p className="mt-1 text-stone-600">
          Signed in {at(session.created_at)} · last used {at(session.last_seen_at)}
          {session.ip && <> · {session.ip}</>}
        </p>
      </div>
      {!session.current && (
        <Button variant="secondary" className="shrink-0 self-start sm:self-center" isPending={ending} onPress={onEnd} aria-label={`Sign out ${name}, signed in ${at(session.created_at)}`}>
          Sign out
        </Button>
      )}
    </li>
  );
}
