import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { HttpError } from '../../api/call.ts';
import { describeError } from '../../api/errors.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { choicesQuery, projectQuery, useDeleteProject, useUpdateProject, type Choices, type Project } from './api.ts';
import { useFormat } from '../../api/format.ts';
import { useProjectTexts } from './texts.ts';
import { PeopleSection } from './PeopleSection.tsx';
import { ProjectForm, useResetOnChange } from './ProjectForm.tsx';
import { RateHistorySection } from './RateHistorySection.tsx';
import { TasksSection } from './TasksSection.tsx';
import { patchBody, valuesOf } from './values.ts';

const isStale = (error: unknown) => error instanceof HttpError && error.status === 412;

/** /projects/:id: the project's fields (editable by its managers), its tasks, its people and its rate history. */
export function ProjectPage() {
  const t = useProjectTexts();
  const { id = '' } = useParams();
  const item = useQuery(projectQuery(id));
  const choices = useQuery(choicesQuery(id));
  const error = item.error ?? choices.error;
  const project = item.data?.project;
  const [historyOpen, setHistoryOpen] = useState(false);
  return (
    <div className="flex max-w-4xl flex-col gap-8">
      <div>
        <Link href="/projects" className="text-sm">
          {t('backToProjects')}
        </Link>
        <PageHeading className="mt-2">{project ? project.name : t('project')}</PageHeading>
        {project && (
          <p className="mt-1 text-sm text-stone-700">
            {project.client.name}
            {project.code && ` · ${project.code}`}
            {!project.is_active && ` · ${t('archived')}`}
          </p>
        )}
      </div>
      {error && !(item.data && choices.data) && <Alert>{describeError(error).message}</Alert>}
      {!error && !(item.data && choices.data) && (
        <div role="status" className="text-stone-600">
          {t('loading')}
        </div>
      )}
      {item.data && choices.data && (
        <>
          <Details key={item.data.etag} project={item.data.project} etag={item.data.etag} choices={choices.data} onRateChanged={() => setHistoryOpen(true)} />
          <TasksSection project={item.data.project} choices={choices.data} />
          {choices.data.may.update && <PeopleSection project={item.data.project} choices={choices.data} />}
          {choices.data.may.see_rates && <RateHistorySection project={item.data.project} open={historyOpen} onOpen={setHistoryOpen} />}
        </>
      )}
    </div>
  );
}

function Details(props: { project: Project; etag: string; choices: Choices; onRateChanged: () => void }) {
  const { project, etag, choices, onRateChanged } = props;
  const t = useProjectTexts();
  const queryClient = useQueryClient();
  const update = useUpdateProject(project.id);
  const [values, setValues] = useState(() => valuesOf(project));
  useResetOnChange(values, update.reset);
  const may = choices.may;
  const stale = isStale(update.error);

  const reload = async () => {
    update.reset();
    await queryClient.refetchQueries({ queryKey: projectQuery(project.id).queryKey });
  };

  return (
    <section aria-labelledby="details" className="flex flex-col gap-4">
      <h2 id="details" className="text-lg font-semibold text-stone-900">
        {t('page.details')}
      </h2>
      {stale && (
        <Alert title={t('page.staleTitle')}>
          <p>{t('page.staleText')}</p>
          <Button variant="secondary" className="mt-2" onPress={reload}>
            {t('page.reload')}
          </Button>
        </Alert>
      )}
      {may.update ? (
        <ProjectForm
          choices={choices}
          project={project}
          values={values}
          onChange={setValues}
          error={stale ? null : update.error}
          disabled={!project.is_active}
          onSubmit={() => {
            const body = patchBody(values, project, may);
            if (Object.keys(body).length === 0 || update.isPending) return;
            // A saved change brings a new ETag, which remounts this form: follow the promise, not the component's callback.
            update.mutateAsync({ body, etag }).then(() => body.hourly_rate !== undefined && onRateChanged(), () => {});
          }}
          actions={
            <div className="flex flex-wrap items-center justify-between gap-3 border-t border-stone-200 pt-5">
              {project.is_active ? (
                <Button type="submit" isPending={update.isPending}>
                  {t('page.save')}
                </Button>
              ) : (
                <p className="text-sm text-stone-700">{t('page.archivedCannotChange')}</p>
              )}
              <ArchiveActions project={project} etag={etag} choices={choices} />
            </div>
          }
        />
      ) : (
        <Summary project={project} />
      )}
    </section>
  );
}

/** What a person who may not change the project sees: its fields, and billing only when the server sent it. */
function Summary({ project: p }: { project: Project }) {
  const t = useProjectTexts();
  const format = useFormat();
  const money = (amount: number) => format.money(amount, p.client.currency);
  const { workspace } = useWorkspaceSession();
  const rows: [string, string][] = [
    [t('client'), p.client.name],
    [t('page.code'), p.code ?? '—'],
    [t('owner'), p.owner?.name ?? t('form.noOwner')],
    [
      t('page.dates'),
      p.starts_on || p.ends_on
        ? t('page.dateRange', { from: p.starts_on ? format.day(p.starts_on) : t('page.open'), to: p.ends_on ? format.day(p.ends_on) : t('page.open') })
        : '—',
    ],
    [t('page.billable'), p.is_billable ? t('page.yes') : t('page.no')],
  ];
  if (p.hourly_rate !== undefined)
    rows.push([t('billing'), p.hourly_rate != null && p.bill_by === 'project' ? t('perHour', { amount: money(p.hourly_rate) }) : t(`billBy.${p.bill_by}`)]);
  if (p.fee != null) rows.push([t('form.fixedFee'), money(p.fee)]);
  // An internal cost budget is the workspace's money, not the client's.
  if (p.budget != null) rows.push([t('budget'), p.budget_by === 'project_cost' ? format.money(p.budget, workspace.currency) : t('hours', { hours: format.number(p.budget) })]);
  return (
    <div className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-stone-700">{label}</dt>
            <dd className="text-stone-900">{value}</dd>
          </div>
        ))}
      </dl>
      {p.notes && <p className="mt-3 text-sm whitespace-pre-wrap text-stone-800">{p.notes}</p>}
    </div>
  );
}

function ArchiveActions({ project, etag, choices }: { project: Project; etag: string; choices: Choices }) {
  const t = useProjectTexts();
  const update = useUpdateProject(project.id);
  const error = update.error && !isStale(update.error) ? describeError(update.error).message : null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {isStale(update.error) && (
        <p role="alert" className="text-sm text-red-700">
          {t('page.staleShort')}
        </p>
      )}
      <Button variant="secondary" isPending={update.isPending} onPress={() => update.mutate({ body: { is_active: !project.is_active }, etag })}>
        {project.is_active ? t('page.archive') : t('page.restore')}
      </Button>
      {!project.is_active && choices.may.delete && <DeleteButton project={project} etag={etag} />}
    </div>
  );
}

/** Deleting takes the page's project away (this button unmounts), so the navigation follows the mutation's promise. */
function DeleteButton({ project, etag }: { project: Project; etag: string }) {
  const t = useProjectTexts();
  const navigate = useNavigate();
  const remove = useDeleteProject(project.id);
  const problem = remove.error
    ? isStale(remove.error)
      ? t('page.deleteStale')
      : remove.error instanceof HttpError && remove.error.status === 409
        ? t('page.nothingDeleted', { message: describeError(remove.error).message })
        : describeError(remove.error).message
    : null;
  return (
    <DialogTrigger onOpenChange={(open) => !open && remove.reset()}>
      <Button variant="quiet" className="text-red-800">
        {t('page.delete')}
      </Button>
      <Dialog title={t('page.deleteQuestion')}>
        <div className="flex flex-col gap-4">
          {problem && <Alert>{problem}</Alert>}
          <p className="text-sm text-stone-700">
            {t('page.deleteExplained', { name: project.name })}
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" slot="close">
              {t('page.keepIt')}
            </Button>
            <Button variant="danger" isPending={remove.isPending} onPress={() => remove.mutateAsync(etag).then(() => navigate('/projects'), () => {})}>
              {t('page.delete')}
            </Button>
          </div>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}
