import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ComboOption } from '../../ui/ComboBox.tsx';
import { choicesQuery, timerQuery } from './api.ts';
import { choiceId, choiceLabel, recentFirst } from './choices.ts';

/**
 * A project-task type-ahead's options (timer bar, Add row, the day's Add entry): the pairs the
 * caller may record on, the ones they used last first (the running timer's answer names them),
 * less those in `taken` (rows the week already has). The list is asked for and built when the
 * field is first focused (`want`), not with the page: thousands of pairs would cost its paint.
 */
export function usePairOptions(taken?: ReadonlySet<string>) {
  const [wanted, setWanted] = useState(false);
  const choices = useQuery({ ...choicesQuery, enabled: wanted });
  const recent = useQuery({ ...timerQuery, select: (t) => t.recent, enabled: false }).data;
  const options = useMemo<ComboOption[]>(() => {
    if (!choices.data) return [];
    return recentFirst(choices.data, recent ?? [])
      .filter((c) => !taken?.has(choiceId(c)))
      .map((c) => ({ id: choiceId(c), label: choiceLabel(c) }));
  }, [choices.data, recent, taken]);
  return {
    options,
    choices: choices.data,
    isPending: wanted && choices.isPending,
    error: choices.error,
    want: () => setWanted(true),
    find: (key: unknown) => choices.data?.find((c) => choiceId(c) === key),
  };
}
