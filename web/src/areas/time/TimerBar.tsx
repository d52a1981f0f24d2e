import { useQuery } from '@tanstack/react-query';
import { type FocusEvent, type Ref, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Key } from 'react-aria-components';
import { useFormat } from '../../api/format.ts';
import { HttpError } from '../../api/call.ts';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { useCommand } from '../../ui/commands.ts';
import { formatElapsed } from '../../ui/duration.ts';
import { TextField } from '../../ui/TextField.tsx';
import { cx } from '../../ui/styles.ts';
import { timerQuery, useStartTimer, useStopTimer, type StartTimer, type WebEntry, NOTES_MAX } from './api.ts';
import { choiceLabel } from './choices.ts';
import { usePairOptions } from './pair-options.ts';
import { useTimeTexts } from './texts.ts';
import { useServerNow } from '../../api/server-clock.ts';
import { entrySeconds } from './week.ts';

/**
 * The timer bar of every page (issue 16): pick a project and task, notes, Start; the
 * running timer shows its elapsed time from the server's start (reload and other tabs
 * agree), and stops with one click. Starting while another runs offers to replace it.
 */
export default function TimerBar() {
  const t = useTimeTexts();
  const timer = useQuery(timerQuery);
  const running = timer.data?.running ?? null;
  // Both live here, not in the parts they switch between: the bar changes as soon as one
  // is pressed (optimistic), and the answer must still reach whoever asked.
  const start = useStartTimer();
  const stop = useStopTimer();
  const conflict = start.error instanceof HttpError && start.error.code === 'running_timer_conflict';
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (start.isSuccess) setAnnouncement(t('timer.started'));
  }, [start.isSuccess, t]);
  useEffect(() => {
    if (stop.isSuccess) setAnnouncement(t('timer.stopped'));
  }, [stop.isSuccess, t]);

  // While a start is on its way, or met another running timer, the form stays (to offer replacing it).
  const showRunning = Boolean(running && !start.isPending && !conflict);
  const focus = useFocusKeptInBar(showRunning);
  const barRef = useRef<HTMLElement>(null);
  // The `s` shortcut (app/shell/Shortcuts.tsx): stop a running timer; else start the chosen work, or go to the picker.
  useCommand('timer.toggle', () => {
    if (showRunning && running) {
      start.reset();
      stop.mutate(running.id);
      return;
    }
    const picker = barRef.current?.querySelector<HTMLInputElement>('input[role="combobox"]');
    if (picker && !picker.value) picker.focus();
    else barRef.current?.querySelector('form')?.requestSubmit();
  });
  return (
    <section ref={barRef} aria-label={t('timer.region')} className="border-b border-stone-200 bg-white" {...focus.barProps}>
      <div className="mx-auto max-w-5xl px-4 py-3 sm:px-6 md:px-10">
        {showRunning ? (
          <Running entry={running!} actionRef={focus.actionRef} onStop={() => {
              start.reset();
              stop.mutate(running!.id);
            }} />
        ) : (
          <Idle start={start} running={running} conflict={conflict} actionRef={focus.actionRef} />
        )}
        {stop.error && <Alert className="mt-2">{describeError(stop.error).message}</Alert>}
        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
      </div>
    </section>
  );
}

/**
 * Start swaps the form for the running timer (and Stop back): the focused control goes away
 * with it, and the focus fell to <body> (issue 21 item 8). When the focus was in the bar,
 * it moves to the new state's button (Stop timer, or Start timer); elsewhere it is left alone.
 */
function useFocusKeptInBar(showRunning: boolean) {
  const inBar = useRef(false);
  const actionRef = useRef<HTMLButtonElement>(null);
  const shown = useRef(showRunning);
  useLayoutEffect(() => {
    if (shown.current === showRunning) return;
    shown.current = showRunning;
    const active = document.activeElement;
    if (inBar.current && (!active || active === document.body)) actionRef.current?.focus();
  }, [showRunning]);
  const barProps = {
    onFocus: () => (inBar.current = true),
    // A blur to nowhere (the focused control removed) keeps it: that is when the focus must come back.
    onBlur: (e: FocusEvent<HTMLElement>) => {
      if (e.relatedTarget && !e.currentTarget.contains(e.relatedTarget)) inBar.current = false;
    },
  };
  return { actionRef, barProps };
}

function Running({ entry, onStop, actionRef }: { entry: WebEntry; onStop: () => void; actionRef: Ref<HTMLButtonElement> }) {
  const t = useTimeTexts();
  const now = useServerNow(true);
  const elapsed = entrySeconds(entry, now) * 1000;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <span className="size-2.5 shrink-0 animate-pulse rounded-full bg-teal-600" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-stone-900">{choiceLabel({ client_name: entry.client.name, project_name: entry.project.name, project_code: entry.project.code, task_name: entry.task?.name ?? '' })}</p>
        {entry.notes && <p className="truncate text-sm text-stone-600">{entry.notes}</p>}
      </div>
      <span role="timer" aria-label={t('timer.elapsed')} className="font-mono text-lg tabular-nums text-stone-900">
        {formatElapsed(elapsed)}
      </span>
      <Button variant="danger" onPress={onStop} ref={actionRef}>
        {t('timer.stop')}
      </Button>
    </div>
  );
}

interface IdleProps {
  start: ReturnType<typeof useStartTimer>;
  running: WebEntry | null;
  conflict: boolean;
  actionRef: Ref<HTMLButtonElement>;
}

function Idle({ start, running, conflict, actionRef }: IdleProps) {
  const t = useTimeTexts();
  const pairs = usePairOptions();
  const [selected, setSelected] = useState<Key | null>(null);
  const [notes, setNotes] = useState('');
  const [missing, setMissing] = useState(false);
  const [attempt, setAttempt] = useState<StartTimer | null>(null);
  const choice = pairs.find(selected);

  const begin = (replace = false) => {
    if (!choice) {
      setMissing(true);
      return;
    }
    // A new key for each new start; a retry of the very same start (after a network error) reuses it.
    const same = attempt && !replace && attempt.choice === choice && attempt.notes === notes && !attempt.replace;
    const vars: StartTimer = same ? attempt : { choice, notes, key: crypto.randomUUID(), replace };
    setAttempt(vars);
    start.mutate(vars, {
      onSuccess: () => {
        setNotes('');
        setSelected(null);
        setAttempt(null);
      },
    });
  };

  return (
    // Below 768 px one line: the picker (its label as placeholder) and Start; the notes field
    // joins once a project is chosen or notes are typed (issue 21 item 13).
    <form
      className="flex flex-wrap items-end gap-3 md:flex-nowrap"
      onSubmit={(e) => {
        e.preventDefault();
        begin();
      }}
    >
      <ComboBox
        label={t('projectAndTask')}
        hideLabel="narrow"
        className="min-w-0 flex-1 md:flex-[2]"
        options={pairs.options}
        selectedKey={selected}
        onSelectionChange={(key) => {
          setSelected(key);
          setMissing(false);
        }}
        onFocus={pairs.want}
        emptyText={pairs.isPending ? t('loadingProjects') : t('noPairMatches')}
        isInvalid={missing}
        errorMessage={t('choosePair')}
      />
      <TextField label={t('notes')} maxLength={NOTES_MAX} className={cx('order-last basis-full md:order-none md:flex md:basis-auto md:flex-[2]', !choice && !notes && 'max-md:hidden')} value={notes} onChange={setNotes} />
      <Button type="submit" isPending={start.isPending} ref={actionRef} className="shrink-0">
        {t('timer.start')}
      </Button>
      {start.error && <StartError conflict={conflict} running={running} error={start.error} onReplace={() => begin(true)} />}
    </form>
  );
}

function StartError({ conflict, running, error, onReplace }: { conflict: boolean; running: WebEntry | null; error: unknown; onReplace: () => void }) {
  const t = useTimeTexts();
  const format = useFormat();
  if (!conflict) return <Alert className="md:max-w-xs">{describeError(error).message}</Alert>;
  const project = running?.project.name;
  const text = !running
    ? t('timer.alreadyRunning')
    : running.started_time
      ? t('timer.alreadyRunningOnSince', { project, time: format.time(running.started_time) })
      : t('timer.alreadyRunningOn', { project });
  return (
    <Alert className="md:max-w-sm">
      <p>{text}</p>
      <Button variant="secondary" className="mt-2" onPress={onReplace}>
        {t('timer.replace')}
      </Button>
    </Alert>
  );
}

