import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { isManagerOrAbove } from './access.ts';
import { api } from './client.ts';
import { call } from './call.ts';
import { describeError } from './errors.ts';
import { useSession } from './session.ts';
import { useTexts } from './texts.ts';

/**
 * The people whose time and expenses a page may show besides the caller's own: the
 * picker of the week grid and of the expense list (owners, administrators and
 * managers: api/access.ts isManagerOrAbove; the server still decides, per record).
 */

export const peopleQuery = queryOptions({
  queryKey: ['people'],
  queryFn: () =>
    call(api.GET('/api/v2/users', { params: { query: { is_active: 'true', per_page: 2000 } } })).then((r) =>
      r.users.map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name}`.trim() })),
    ),
  staleTime: 5 * 60_000,
});

/**
 * The choices of a person picker showing `person`: the caller first, as "Me" (the way
 * back to their own records), then everyone else by name. The directory is asked for
 * when the picker is first focused (`onFocus`), not on page load: a page's budget is 3
 * calls; until then the list holds only the person shown. Null for roles without a picker
 * (ui/PersonPicker draws it).
 */
export function usePersonChoices(person: { id: string; name: string }) {
  const session = useSession();
  // The hook's translator, not the module's: the label is memoised, and a person whose
  // language arrives with the session (German) must not keep the English "Me".
  const t = useTexts();
  const [wanted, setWanted] = useState(false);
  const people = useQuery({ ...peopleQuery, enabled: wanted });
  const me = session.user.id;
  const options = useMemo(() => {
    const list = people.data ?? [person];
    const others = list.filter((p) => p.id !== me).sort((a, b) => a.name.localeCompare(b.name));
    const self = { id: me, label: t('people.me', { name: [session.user.first_name, session.user.last_name].filter(Boolean).join(' ') }) };
    return [self, ...others.map((p) => ({ id: p.id, label: p.name }))];
  }, [people.data, person, me, session.user.first_name, session.user.last_name, t]);
  if (!session.workspace || !isManagerOrAbove(session.workspace)) return null;
  return {
    me,
    options,
    onFocus: () => setWanted(true),
    emptyText: people.isPending ? t('people.loading') : t('people.noMatch'),
    errorMessage: people.error ? describeError(people.error).message : undefined,
  };
}
