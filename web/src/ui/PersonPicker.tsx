import { ComboBox, type ComboOption } from './ComboBox.tsx';
import { useTexts } from './texts.ts';

/** What a person picker shows (api/people.ts's usePersonChoices makes it). */
export interface PersonChoices {
  me: string;
  options: ComboOption[];
  onFocus: () => void;
  emptyText: string;
  errorMessage?: string;
}

/**
 * Whose records a page shows (the week grid's, the expense list's): a type-ahead over
 * the people, "Me" first. `onPick` gets the chosen id, or undefined for the caller.
 */
export function PersonPicker({ choices, person, onPick }: { choices: PersonChoices; person: { id: string }; onPick: (userId: string | undefined) => void }) {
  const t = useTexts();
  return (
    <div className="flex flex-col gap-1 sm:w-80">
      <ComboBox
        label={t('person')}
        options={choices.options}
        selectedKey={person.id}
        onFocus={choices.onFocus}
        emptyText={choices.emptyText}
        onSelectionChange={(key) => {
          if (key === null || key === person.id) return;
          onPick(key === choices.me ? undefined : String(key));
        }}
      />
      {choices.errorMessage && (
        <p role="alert" className="text-sm text-red-700">
          {choices.errorMessage}
        </p>
      )}
    </div>
  );
}
