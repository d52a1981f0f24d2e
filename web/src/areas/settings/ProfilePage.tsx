import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, formErrors } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { useFormat } from '../../api/format.ts';
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
import { useSettingsTexts } from './texts.ts';
import { browserName } from './user-agent.ts';

/** Each language in its own name, whatever the page's language. */
const LANGUAGES = [
  { id: 'en', label: 'English' },
  { id: 'de', label: 'Deutsch' },
];
const DATE_FORMATS = ['YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY'] as const;
const THEMES = ['system', 'light', 'dark'] as const;

/** Settings → Profile: the signed-in person's own name, e-mail address, password, preferences and sessions. */
export function ProfilePage() {
  const query = useQuery(profileQuery);
  const t = useSettingsTexts();
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <PageHeading>{t('profile.heading')}</PageHeading>
        <p className="mt-2 text-sm text-stone-600">{t('profile.intro')}</p>
      </div>
      {query.isError ? (
        <Alert>{describeError(query.error).message}</Alert>
      ) : !query.data ? (
        <div aria-busy="true" className="h-[40rem] animate-pulse rounded-lg border border-stone-200 bg-stone-50">
          <span className="sr-only">{t('profile.loading')}</span>
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
  const t = useSettingsTexts();
  const [saved, setSaved] = useState(false);
  const { fieldErrors, summary } = formErrors(update.error, ['first_name', 'last_name']);
  return (
    <SettingsSection id="section-name" title={t('profile.name')} description={t('profile.nameHint')}>
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
        {saved && <Alert tone="success">{t('profile.nameSaved')}</Alert>}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField name="first_name" label={t('profile.firstName')} defaultValue={profile.first_name} autoComplete="given-name" isRequired maxLength={255} />
          <TextField name="last_name" label={t('profile.lastName')} defaultValue={profile.last_name} autoComplete="family-name" maxLength={255} />
        </div>
        <div>
          <Button type="submit" isPending={update.isPending}>
            {t('profile.saveName')}
          </Button>
        </div>
      </Form>
    </SettingsSection>
  );
}

function EmailSection({ profile }: { profile: Profile }) {
  const change = useRequestEmailChange();
  const { user } = useSession();
  const t = useSettingsTexts();
  // A new key empties the form once a link is on its way.
  const [sent, setSent] = useState(0);
  const fields = ['email', 'current_password'];
  const { fieldErrors, summary } = formErrors(change.error, fields);
  return (
    <SettingsSection
      id="section-email"
      title={t('profile.email')}
      description={
        <>
          {t('profile.emailHintBefore')}
          <span className="font-medium text-stone-900">{profile.email}</span>
          {t('profile.emailHintAfter')}
        </>
      }
    >
      <div className="flex flex-col gap-5">
        {profile.pending_email && (
          <Alert tone="info" title={t('profile.pendingTitle')}>
            <p>
              {t('profile.pendingBefore')}
              <span className="font-medium">{profile.pending_email}</span>
              {t('profile.pendingAfter', { email: profile.email })}
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
            <TextField name="email" type="email" label={t('profile.newEmail')} autoComplete="email" isRequired maxLength={320} />
            {profile.has_password && (
              <TextField
                name="current_password"
                type="password"
                label={t('profile.currentPassword')}
                description={t('profile.currentPasswordHint')}
                autoComplete="current-password"
                isRequired
              />
            )}
          </div>
          <div>
            <Button type="submit" isPending={change.isPending}>
              {t('profile.sendLink')}
            </Button>
          </div>
        </Form>
      </div>
    </SettingsSection>
  );
}

function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const t = useSettingsTexts();
  return (
    <SettingsSection id="section-password" title={t('profile.password')}>
      <p className="text-sm text-stone-600">
        {hasPassword ? t('profile.passwordChangeHint') : t('profile.passwordNoneHint')}
        <Link href="/settings/password">{hasPassword ? t('profile.changePassword') : t('profile.setPassword')}</Link>
      </p>
    </SettingsSection>
  );
}

function PreferencesSection({ preferences }: { preferences: Preferences }) {
  const update = useUpdateProfile();
  const t = useSettingsTexts();
  const [saved, setSaved] = useState(false);
  const { summary } = formErrors(update.error, []);
  return (
    <SettingsSection id="section-preferences" title={t('profile.preferences')} description={t('profile.preferencesHint')}>
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
        {saved && <Alert tone="success">{t('profile.preferencesSaved')}</Alert>}
        <div className="grid gap-5 sm:grid-cols-2">
          <Select name="language" label={t('profile.language')} options={LANGUAGES} defaultSelectedKey={preferences.language} />
          <Select
            name="date_format"
            label={t('profile.dates')}
            options={DATE_FORMATS.map((id) => ({ id, label: id.replace('YYYY', '2025').replace('MM', '01').replace('DD', '31') }))}
            defaultSelectedKey={preferences.date_format}
          />
          <Select
            name="duration_format"
            label={t('profile.durations')}
            options={[
              { id: 'h:mm', label: t('profile.durationFormats.clock') },
              { id: 'decimal', label: t('profile.durationFormats.decimal') },
            ]}
            defaultSelectedKey={preferences.duration_format}
          />
          <Select
            name="theme"
            label={t('profile.theme')}
            options={THEMES.map((id) => ({ id, label: t(`profile.themes.${id}`) }))}
            defaultSelectedKey={preferences.theme}
          />
        </div>
        <div>
          <Button type="submit" isPending={update.isPending}>
            {t('profile.savePreferences')}
          </Button>
        </div>
      </Form>
    </SettingsSection>
  );
}

function SessionsSection() {
  const query = useQuery(ownSessionsQuery);
  const elsewhere = useSignOutElsewhere();
  const end = useEndSession();
  const t = useSettingsTexts();
  const others = (query.data ?? []).filter((s) => !s.current);
  const error = elsewhere.error ?? end.error;
  return (
    <SettingsSection id="section-sessions" title={t('profile.sessions')} description={t('profile.sessionsHint')}>
      <div className="flex flex-col gap-4">
        {error && <Alert>{describeError(error).message}</Alert>}
        {elsewhere.isSuccess && others.length === 0 && <Alert tone="success">{t('profile.signedOutElsewhere')}</Alert>}
        {query.isError ? (
          <Alert>{describeError(query.error).message}</Alert>
        ) : !query.data ? (
          <p className="text-sm text-stone-600" aria-busy="true">
            {t('profile.loadingSessions')}
          </p>
        ) : (
          <ul className="divide-y divide-stone-200 rounded-md border border-stone-200" aria-label={t('profile.sessionsList')}>
            {query.data.map((s) => (
              <SessionRow key={s.id} session={s} onEnd={() => end.mutate(s.id)} ending={end.isPending && end.variables === s.id} />
            ))}
          </ul>
        )}
        <div>
          <Button variant="secondary" isDisabled={others.length === 0} isPending={elsewhere.isPending} onPress={() => elsewhere.mutate()}>
            {t('profile.signOutElsewhere')}
          </Button>
        </div>
      </div>
    </SettingsSection>
  );
}

function SessionRow({ session, onEnd, ending }: { session: OwnSession; onEnd: () => void; ending: boolean }) {
  const t = useSettingsTexts();
  const format = useFormat();
  const at = (iso: string) => format.dateTime(iso);
  const name = browserName(session.user_agent);
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={session.current ? t('profile.thisBrowserNamed', { name }) : name}>
      <div className="min-w-0 text-sm">
        <p className="font-medium text-stone-900">
          {name}
          {session.current && <span className="ml-2 rounded-full bg-teal-50 px-2 py-0.5 text-xs font-medium text-teal-900">{t('profile.thisBrowser')}</span>}
        </p>
        <p className="mt-1 text-stone-600">
          {t('profile.sessionTimes', { created: at(session.created_at), used: at(session.last_seen_at) })}
          {session.ip && <> · {session.ip}</>}
        </p>
      </div>
      {!session.current && (
        <Button variant="secondary" className="shrink-0 self-start sm:self-center" isPending={ending} onPress={onEnd} aria-label={t('profile.signOutNamed', { name, created: at(session.created_at) })}>
          {t('profile.signOut')}
        </Button>
      )}
    </li>
  );
}
