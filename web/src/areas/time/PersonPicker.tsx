import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { peopleQuery } from './api.ts';

/** Who may open someone else's week: the roles whose time visibility goes beyond their own. */
const PICKER_ROLES = ['owner', 'administrator', 'manager'];

/**
 * Whose week the grid shows, for owners, administrators and managers. The list is asked
 * for when the picker is first focused (not on page load: the budget is 3 calls); until
 * then it holds only the person shown, named by the sheet.
 */
export function PersonPicker({ from, person }: { from: string; person: { id: string; name: string } }) {
  const session = useSession();
  const navigate = useNavigate();
  const [wanted, setWanted] = useState(false);
  const people = useQuery({ ...peopleQuery, enabled: wanted });
  const me = session.user.id;
  const options = useMemo(() => {
    const list = people.data ?? [person];
    // The caller first, as "Me": the way back to their own week.
    const others = list.filter((p) => p.id !== me).sort((a, b) => a.name.localeCompare(b.name));
    const self = { id: me, label: `Me (${session.user.first_name} ${session.user.last_name})`.replace(' )', ')') };
    return [self, ...others.map((p) => ({ id: p.id, label: p.name }))];
  }, [people.data, person, me, session.user.first_name, session.user.last_name]);
  if (!session.workspace || !PICKER_ROLES.includes(session.workspace.role)) return null;
  return (
    <div className="flex flex-col gap-1 sm:w-80">
      <ComboBox
        label="Person"
        options={options}
        selectedKey={person.id}
        onFocus={() => setWanted(true)}
        emptyText={people.isPending ? 'Loading people…' : 'No one matches'}
        onSelectionChange={(key) => {
          if (key === null || key === person.id) return;
          navigate(key === me ? `/time/week?start=${from}` : `/time/week?start=${from}&user=${String(key)}`);
        }}
      />
      {people.isError && <p role="alert" className="text-sm text-red-700">{describeError(people.error).message}</p>}
    </div>
  );
}
