import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { choicesQuery, useCreateProject, type Choices } from './api.ts';
import { ProjectForm, useResetOnChange } from './ProjectForm.tsx';
import { useProjectTexts } from './texts.ts';
import { createBody, valuesOf } from './values.ts';

/** /projects/new: a project with every field the API accepts; it gets the workspace's default tasks. */
export function NewProjectPage() {
  const t = useProjectTexts();
  const choices = useQuery(choicesQuery());
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <div>
        <Link href="/projects" className="text-sm">
          {t('backToProjects')}
        </Link>
        <PageHeading className="mt-2">{t('newProject')}</PageHeading>
      </div>
      {choices.error && <Alert>{describeError(choices.error).message}</Alert>}
      {!choices.data && !choices.error && (
        <div role="status" className="text-stone-600">
          {t('loading')}
        </div>
      )}
      {choices.data && !choices.data.may.create && <Alert tone="info">{t('cannotCreate')}</Alert>}
      {choices.data?.may.create && <NewProject choices={choices.data} />}
    </div>
  );
}

function NewProject({ choices }: { choices: Choices }) {
  const t = useProjectTexts();
  const navigate = useNavigate();
  const create = useCreateProject();
  const keyFor = useIdempotencyKey();
  const [values, setValues] = useState(valuesOf);
  useResetOnChange(values, create.reset);
  return (
    <ProjectForm
      choices={choices}
      values={values}
      onChange={setValues}
      error={create.error}
      onSubmit={() => {
        if (!values.client_id || create.isPending) return;
        const body = createBody(values, choices.may);
        // A second click, or a retry of the same body, reuses the key: the server creates one project.
        create.mutate({ body, key: keyFor(body) }, { onSuccess: (project) => navigate(`/projects/${project.id}`) });
      }}
      actions={
        <div className="flex gap-2 border-t border-stone-200 pt-5">
          <Button type="submit" isPending={create.isPending}>
            {t('createProject')}
          </Button>
          <Button variant="secondary" onPress={() => navigate('/projects')}>
            {t('cancel')}
          </Button>
        </div>
      }
    />
  );
}
