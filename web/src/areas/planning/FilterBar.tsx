import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Input, Label, SearchField } from 'react-aria-components';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { ComboBox, type ComboOption } from '../../ui/ComboBox.tsx';
import { XIcon } from '../../ui/icons.tsx';
import { Select } from '../../ui/Select.tsx';
import { cx, fieldLabel, focusRingCss, inputBox } from '../../ui/styles.ts';
import { useTypedSearch } from '../../ui/typed-search.ts';
import { projectChoicesQuery, type Assignment } from './api.ts';
import { isFiltered, NO_FILTER, type PlannerFilter, type Show } from './filters.ts';
import { usePlanningTexts } from './texts.ts';

interface FilterBarProps {
  filter: PlannerFilter;
  onChange: (filter: PlannerFilter) => void;
  /** The schedule's plans: they name the projects planned in the weeks shown before the project list is loaded. */
  assignments: Assignment[];
  /** "12 of 48 people, 2 of 5 placeholders" (said by the page's live region when a filter changes). */
  count: string;
}

/**
 * The planner's filter bar (Float's and Forecast's): a name search, projects picked one by one
 * (each a removable chip), people and/or placeholders, and only the over-allocated rows. The
 * URL holds every filter (filters.ts); the search is written after a pause. On a phone the
 * search stays and the rest folds behind a "Filters" button, so the schedule stays on screen.
 */
export function FilterBar({ filter, onChange, assignments, count }: FilterBarProps) {
  const t = usePlanningTexts();
  const [text, setText] = useTypedSearch(filter.search, (search) => onChange({ ...filter, search }));
  const [open, setOpen] = useState(false);
  const panel = useId();
  // The project list loads when the picker is first used, or when the URL names projects; a plain
  // page load stays at its calls (session, timer, schedule).
  const [want, setWant] = useState(filter.projects.length > 0);
  const choices = useQuery({ ...projectChoicesQuery, enabled: want });
  const names = useProjectNames(choices.data, assignments);
  const chosen = useMemo(() => new Set(filter.projects), [filter.projects]);
  const options: ComboOption[] = useMemo(
    () =>
      [...names]
        .filter(([id]) => !chosen.has(id))
        .map(([id, label]) => ({ id, label }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [names, chosen],
  );
  const shows: { id: Show; label: string }[] = [
    { id: 'all', label: t('filters.showAll') },
    { id: 'people', label: t('filters.showPeople') },
    { id: 'placeholders', label: t('filters.showPlaceholders') },
  ];
  // The folded filters that narrow (the search stays in sight): the phone's button counts them.
  const folded = filter.projects.length + (filter.show !== 'all' ? 1 : 0) + (filter.over ? 1 : 0);
  const onWant = () => setWant(true);

  return (
    <div role="group" aria-label={t('filters.group')} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-x-3 gap-y-2">
        <SearchField value={text} onChange={setText} className="flex min-w-0 flex-1 flex-col gap-1.5 sm:w-60 sm:flex-none">
          {/* On a phone the field's placeholder is its visible label (at a label's contrast), as the ComboBox's `hideLabel="narrow"`: one line less above the schedule. */}
          <Label className={cx(fieldLabel, 'max-sm:sr-only')}>{t('filters.search')}</Label>
          <Input className={cx(inputBox, 'max-sm:placeholder:text-stone-600 sm:placeholder:text-transparent [&::-webkit-search-cancel-button]:hidden')} placeholder={t('filters.search')} />
        </SearchField>
        <Button variant="secondary" className="sm:hidden" aria-expanded={open} aria-controls={panel} onPress={() => setOpen(!open)}>
          {folded ? t('filters.moreActive', { count: folded }) : t('filters.more')}
        </Button>
        <div id={panel} className={cx(open ? 'flex' : 'hidden', 'w-full flex-wrap items-end gap-x-3 gap-y-2 sm:flex sm:w-auto')}>
          <ComboBox
            label={t('filters.addProject')}
            className="w-full sm:w-56"
            options={options}
            selectedKey={null}
            onFocus={onWant}
            onOpenChange={onWant}
            emptyText={choices.isPending && want ? t('filters.loadingProjects') : t('filters.noProject')}
            onSelectionChange={(key) => key !== null && onChange({ ...filter, projects: [...filter.projects, String(key)] })}
          />
          <Select
            className="w-full sm:w-52"
            label={t('filters.show')}
            options={shows}
            selectedKey={filter.show}
            onSelectionChange={(key) => key !== null && onChange({ ...filter, show: key as Show })}
          />
          <Checkbox className="min-h-10" isSelected={filter.over} onChange={(over) => onChange({ ...filter, over })}>
            {t('filters.over')}
          </Checkbox>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
        <p className="font-medium text-stone-800">{count}</p>
        {filter.projects.length > 0 && (
          <ul className="flex flex-wrap gap-2" aria-label={t('filters.project')}>
            {filter.projects.map((id) => {
              const label = names.get(id) ?? (choices.isPending ? '…' : t('filters.unknownProject'));
              return (
                <li key={id}>
                  <button
                    type="button"
                    aria-label={t('filters.removeProject', { project: label })}
                    onClick={() => onChange({ ...filter, projects: filter.projects.filter((p) => p !== id) })}
                    className={cx('inline-flex min-h-8 items-center gap-1.5 rounded-full border border-teal-700 bg-teal-50 py-1 pr-2 pl-3 text-sm text-teal-950 hover:bg-teal-100', focusRingCss)}
                  >
                    {label}
                    <XIcon className="size-3.5" />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {isFiltered(filter) && (
          <Button variant="quiet" className="min-h-8 px-2 py-1 underline" onPress={() => onChange(NO_FILTER)}>
            {t('filters.clear')}
          </Button>
        )}
      </div>
    </div>
  );
}

/** "Client – Project" per project id: the schedule's plans' (at once), then the project list's. */
function useProjectNames(choices: { id: string; name: string; client_name: string }[] | undefined, assignments: Assignment[]): Map<string, string> {
  return useMemo(() => {
    const names = new Map<string, string>();
    for (const a of assignments) if (a.project.name) names.set(a.project.id, `${a.project.client_name ?? ''} – ${a.project.name}`);
    for (const p of choices ?? []) names.set(p.id, `${p.client_name} – ${p.name}`);
    return names;
  }, [choices, assignments]);
}
