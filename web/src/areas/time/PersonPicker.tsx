import { useNavigate } from 'react-router';
import { usePersonChoices } from '../../api/people.ts';
import { PersonPicker as Picker } from '../../ui/PersonPicker.tsx';

/** Whose week the grid shows, for owners, administrators and managers (`user` in the URL). */
export function PersonPicker({ from, person }: { from: string; person: { id: string; name: string } }) {
  const navigate = useNavigate();
  const choices = usePersonChoices(person);
  if (!choices) return null;
  return <Picker choices={choices} person={person} onPick={(user) => navigate(user ? `/time/week?start=${from}&user=${user}` : `/time/week?start=${from}`)} />;
}
