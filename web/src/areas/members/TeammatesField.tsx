import { useMemo, useState } from 'react';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { search, searchIndex } from '../../ui/match.ts';
import { TextField } from '../../ui/TextField.tsx';
import { fullName, type Member } from './api.ts';
import { useMemberTexts } from './texts.ts';

/**
 * Above this many people the teammates get a search and a scrolled list: an agency's manager
 * picked from 298 checkboxes in a dialog as tall as the list.
 */
const SEARCH_FROM = 12;

/**
 * The people whose time a manager approves, as checkboxes. Those already chosen come first, in
 * the order they had when the editor opened (a tick does not move anyone under the pointer); the
 * count of chosen people stays in view above a search that narrows the list by name or e-mail.
 */
export function TeammatesField({ people, value, onChange }: { people: Member[]; value: string[]; onChange: (ids: string[]) => void }) {
  const t = useMemberTexts();
  const [query, setQuery] = useState('');
  const [chosenAtOpen] = useState(() => new Set(value));
  const ordered = useMemo(() => [...people.filter((p) => chosenAtOpen.has(p.id)), ...people.filter((p) => !chosenAtOpen.has(p.id))], [people, chosenAtOpen]);
  const index = useMemo(() => searchIndex(ordered, (p) => `${fullName(p)} ${p.email}`), [ordered]);
  const long = people.length > SEARCH_FROM;
  const shown = query.trim() ? search(index, query) : ordered;
  return (
    <fieldset className="flex min-w-0 flex-col gap-2.5">
      <legend className="mb-1 text-sm font-medium text-stone-800">{t('members.teammates')}</legend>
      {long && (
        <>
          <p className="text-sm text-stone-600">{t('members.teammatesChosen', { count: value.length })}</p>
          <TextField label={t('members.findTeammate')} description={t('members.findTeammateHint')} type="search" value={query} onChange={setQuery} />
          {query.trim() && (
            <p role="status" className="text-sm text-stone-600">
              {t('members.teammatesFound', { count: shown.length, query: query.trim() })}
            </p>
          )}
        </>
      )}
      <div className={long ? 'flex max-h-72 flex-col gap-2.5 overflow-y-auto rounded-md border border-stone-200 p-2' : 'flex flex-col gap-2.5'}>
        {shown.map((o) => (
          <Checkbox key={o.id} isSelected={value.includes(o.id)} onChange={(on) => onChange(on ? [...value, o.id] : value.filter((id) => id !== o.id))}>
            {fullName(o)}
          </Checkbox>
        ))}
      </div>
    </fieldset>
  );
}
