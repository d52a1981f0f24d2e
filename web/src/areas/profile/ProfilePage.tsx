import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, formErrors } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Link } from '../../ui/Link.tsx';
import { SettingsPage, SettingsSection } from '../../ui/SettingsSection.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import {
  calendarFeedQuery,
  ownSessionsQuery,
  profileQuery,
  useCreateCalendarFeed,
  useEndSession,
  useRevokeCalendarFeed,
  useRequestEmailChange,
  useSignOutElsewhere,
  useUpdateProfile,
  type OwnSession,
  type Preferences,
  type Profile,
} from './api.ts';
import { useProfileTexts } from './texts.ts';
import { TwoFactorSection } from './TwoFactor.tsx';
import { PasskeysSection } from './Passkeys.tsx';
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
  const t = useProfileTexts();
  return (
    <SettingsPage
      heading={t('heading')}
      intro={t('intro')}
      error={query.isError ? describeError(query.error).message : null}
      data={query.data}
      loading={t('loading')}
      placeholder="h-[40rem]"
    >
      {(profile) => (
        <>
          <NameSection profile={profile} />
          <EmailSection profile={profile} />
          <PasswordSection hasPassword={profile.has_password} />
          <TwoFactorSection />
          <PasskeysSection />
          <PreferencesSection preferences={profile.preferences} />
          <SessionsSection />
          <CalendarFeedSection />
        </>
      )}
    </SettingsPage>
  );
}

function NameSection({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const t = useProfileTexts();
  const [saved, setSaved] = useState(false);
  const { fieldErrors, summary } = formErrors(update.error, ['first_name', 'last_name']);
  return (
    <SettingsSection id="section-name" title={t('name')} description={t('nameHint')}>
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
        {saved && <Alert tone="success">{t('nameSaved')}</Alert>}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField name="first_name" label={t('firstName')} defaultValue={profile.first_name} autoComplete="given-name" isRequired maxLength={255} />
          <TextField name="last_name" label={t('lastName')} defaultValue={profile.last_name} autoComplete="family-name" maxLength={255} />
        </div>
        <div>
          <Button type="submit" isPending={update.isPending}>
            {t('saveName')}
          </Button>
        </div>
      </Form>
    </SettingsSection>
  );
}

function EmailSection({ profile }: { profile: Profile }) {
  const change = useRequestEmailChange();
  const { user } = useSession();
  const t = useProfileTexts();
  // A new key empties the form once a link is on its way.
  const [sent, setSent] = useState(0);
  const fields = ['email', 'current_password'];
  const { fieldErrors, summary } = formErrors(change.error, fields);
  return (
    <SettingsSection
      id="section-email"
      title={t('email')}
      description={
        <>
          {t('emailHintBefore')}
          <span className="font-medium text-stone-900">{profile.email}</span>
          {t('emailHintAfter')}
        </>
      }
    >
      <div className="flex flex-col gap-5">
        {profile.pending_email && (
          <Alert tone="info" title={t('pendingTitle')}>
            <p>
              {t('pendingBefore')}
              <span className="font-medium">{profile.pending_email}</span>
              {t('pendingAfter', { email: profile.email })}
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
            <TextField name="email" type="email" label={t('newEmail')} autoComplete="email" isRequired maxLength={320} />
            {profile.has_password && (
              <TextField
                name="current_password"
                type="password"
                label={t('currentPassword')}
                description={t('currentPasswordHint')}
                autoComplete="current-password"
                isRequired
              />
            )}
          </div>
          <div>
            <Button type="submit" isPending={change.isPending}>
              {t('sendLink')}
            </Button>
          </div>
        </Form>
      </div>
    </SettingsSection>
  );
}

function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const t = useProfileTexts();
  return (
    <SettingsSection id="section-password" title={t('password')}>
      <p className="text-sm text-stone-600">
        {hasPassword ? t('passwordChangeHint') : t('passwordNoneHint')}
        <Link href="/settings/password">{hasPassword ? t('changePassword') : t('setPassword')}</Link>
      </p>
    </SettingsSection>
  );
}

function PreferencesSection({ preferences }: { preferences: Preferences }) {
  const update = useUpdateProfile();
  const t = useProfileTexts();
  const [saved, setSaved] = useState(false);
  const { summary } = formErrors(update.error, []);
  return (
    <SettingsSection id="section-preferences" title={t('preferences')} description={t('preferencesHint')}>
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
        {saved && <Alert tone="success">{t('preferencesSaved')}</Alert>}
        <div className="grid gap-5 sm:grid-cols-2">
          <Select name="language" label={t('language')} options={LANGUAGES} defaultSelectedKey={preferences.language} />
          <Select
            name="date_format"
            label={t('dates')}
            options={DATE_FORMATS.map((id) => ({ id, label: id.replace('YYYY', '2025').replace('MM', '01').replace('DD', '31') }))}
            defaultSelectedKey={preferences.date_format}
          />
          <Select
            name="duration_format"
            label={t('durations')}
            options={[
              { id: 'h:mm', label: t('durationFormats.clock') },
              { id: 'decimal', label: t('durationFormats.decimal') },
            ]}
            defaultSelectedKey={preferences.duration_format}
          />
          <Select
            name="theme"
            label={t('theme')}
            options={THEMES.map((id) => ({ id, label: t(`themes.${id}`) }))}
            defaultSelectedKey={preferences.theme}
          />
        </div>
        <div>
          <Button type="submit" isPending={update.isPending}>
            {t('savePreferences')}
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
  const t = useProfileTexts();
  const others = (query.data ?? []).filter((s) => !s.current);
  const error = elsewhere.error ?? end.error;
  return (
    <SettingsSection id="section-sessions" title={t('sessions')} description={t('sessionsHint')}>
      <div className="flex flex-col gap-4">
        {error && <Alert>{describeError(error).message}</Alert>}
        {elsewhere.isSuccess && others.length === 0 && <Alert tone="success">{t('signedOutElsewhere')}</Alert>}
        {query.isError ? (
          <Alert>{describeError(query.error).message}</Alert>
        ) : !query.data ? (
          <p className="text-sm text-stone-600" aria-busy="true">
            {t('loadingSessions')}
          </p>
        ) : (
          <ul className="divide-y divide-stone-200 rounded-md border border-stone-200" aria-label={t('sessionsList')}>
            {query.data.map((s) => (
              <SessionRow key={s.id} session={s} onEnd={() => end.mutate(s.id)} ending={end.isPending && end.variables === s.id} />
            ))}
          </ul>
        )}
        <div>
          <Button variant="secondary" isDisabled={others.length === 0} isPending={elsewhere.isPending} onPress={() => elsewhere.mutate()}>
            {t('signOutElsewhere')}
          </Button>
        </div>
      </div>
    </SettingsSection>
  );
}

function SessionRow({ session, onEnd, ending }: { session: OwnSession; onEnd: () => void; ending: boolean }) {
  const t = useProfileTexts();
  const format = useFormat();
  const at = (iso: string) => format.dateTime(iso);
  const name = browserName(session.user_agent);
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={session.current ? t('thisBrowserNamed', { name }) : name}>
      <div className="min-w-0 text-sm">
        <p className="font-medium text-stone-900">
          {name}
          {session.current && <span className="ml-2 rounded-full bg-teal-50 px-2 py-0.5 text-xs font-medium text-teal-900">{t('thisBrowser')}</span>}
        </p>
        <p className="mt-1 text-stone-600">
          {t('sessionTimes', { created: at(session.created_at), used: at(session.last_seen_at) })}
          {session.ip && <> · {session.ip}</>}
        </p>
      </div>
      {!session.current && (
        <Button variant="secondary" className="shrink-0 self-start sm:self-center" isPending={ending} onPress={onEnd} aria-label={t('signOutNamed', { name, created: at(session.created_at) })}>
          {t('signOut')}
        </Button>
      )}
    </li>
  );
}

/**
 * The person's calendar feed (issue 27 item 4): whether a link works and when a calendar last
 * read it; a new link on request, shown this once to copy (the server keeps only its hash);
 * a new link ends the old one, revoking ends it.
 */
function CalendarFeedSection() {
  const t = useProfileTexts();
  const format = useFormat();
  const query = useQuery(calendarFeedQuery);
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  const [revoked, setRevoked] = useState(false);
  const feed = query.data;
  return (
    <SettingsSection id="section-calendar-feed" title={t('calendarFeed')} description={t('calendarFeedHint')}>
      <div className="flex flex-col gap-4">
        {query.isError ? (
          <Alert>{describeError(query.error).message}</Alert>
        ) : !feed ? (
          <p className="text-sm text-stone-600" aria-busy="true">
            {t('calendarFeedLoading')}
          </p>
        ) : (
          <p className="text-sm text-stone-800">
            {feed.active && feed.created_at
              ? `${t('calendarFeedActive', { created: format.dateTime(feed.created_at) })} ${
                  feed.last_fetched_at ? t('calendarFeedFetched', { fetched: format.dateTime(feed.last_fetched_at) }) : t('calendarFeedNeverFetched')
                }`
              : t('calendarFeedNone')}
          </p>
        )}
        {revoked && <Alert tone="success">{t('calendarFeedRevoked')}</Alert>}
        {create.error && <Alert>{describeError(create.error).message}</Alert>}
        {create.data && !revoked && (
          <div className="flex flex-col gap-2 rounded-lg border border-stone-200 bg-white p-3 shadow-xs sm:flex-row sm:items-end">
            <TextField label={t('calendarFeedNew')} value={create.data.url} isReadOnly className="min-w-0 grow" />
            <CopyButton value={create.data.url} label={t('calendarFeedCopy')} />
          </div>
        )}
        {feed && (
          <div className="flex flex-wrap items-center gap-2">
            <Button
              variant="secondary"
              isPending={create.isPending}
              onPress={() => {
                setRevoked(false);
                create.mutate();
              }}
            >
              {feed.active ? t('calendarFeedRotate') : t('calendarFeedCreate')}
            </Button>
            {feed.active && (
              <ConfirmButton
                label={t('calendarFeedRevoke')}
                title={t('calendarFeedRevokeTitle')}
                text={t('calendarFeedRevokeText')}
                confirmLabel={t('calendarFeedRevokeConfirm')}
                isPending={revoke.isPending}
                errorMessage={revoke.error && describeError(revoke.error).message}
                onOpenChange={() => revoke.reset()}
                onConfirm={(close) => revoke.mutate(undefined, { onSuccess: () => (close(), setRevoked(true), create.reset()) })}
              />
            )}
            {feed.active && <span className="text-sm text-stone-600">{t('calendarFeedRotateHint')}</span>}
          </div>
        )}
      </div>
    </SettingsSection>
  );
}
