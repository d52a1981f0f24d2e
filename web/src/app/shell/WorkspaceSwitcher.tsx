import { useNavigate } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { roleLabel } from '../../api/roles.ts';
import { useWorkspaceSession, useSwitchWorkspace } from '../../api/session.ts';
import { Select } from '../../ui/Select.tsx';
import { useTexts } from '../texts.ts';

const CAPTION = 'text-xs font-medium tracking-wide text-stone-500 uppercase';

/**
 * The current workspace, and the way to another one when there is another. A switch
 * drops every cached answer (they belong to the old workspace) and goes to the start
 * page, since the page open may show records of the old workspace.
 */
export function WorkspaceSwitcher({ onSwitched }: { onSwitched?: () => void }) {
  const { workspace, workspaces } = useWorkspaceSession();
  const switchTo = useSwitchWorkspace();
  const navigate = useNavigate();
  const t = useTexts();

  if (workspaces.length < 2) {
    return (
      <div className="px-3">
        <p className={CAPTION}>{t('workspace')}</p>
        {/* A long name is cut to the sidebar's width; the whole name shows on hover. */}
        <p className="mt-1 truncate text-sm font-semibold text-stone-900" title={workspace.name}>
          {workspace.name}
        </p>
        <p className="text-xs text-stone-600">{roleLabel(workspace.role)}</p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1.5">
      <Select
        label={t('workspace')}
        labelClassName={`${CAPTION} px-3`}
        options={workspaces.map((w) => ({ id: w.id, label: w.name, detail: roleLabel(w.role) }))}
        value={workspace.id}
        isDisabled={switchTo.isPending}
        onChange={(id) => {
          if (typeof id !== 'string' || id === workspace.id) return;
          switchTo.mutate(id, {
            onSuccess: () => {
              onSwitched?.();
              navigate('/');
            },
          });
        }}
      />
      {switchTo.error && (
        <p role="alert" className="text-sm text-red-700">
          {describeError(switchTo.error).message}
        </p>
      )}
    </div>
  );
}
