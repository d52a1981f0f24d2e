import { PERMISSION_IDS, ROLE_IDS, permissionLabel, roleLabel, type PermissionId, type RoleId } from '../../api/roles.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Select } from '../../ui/Select.tsx';
import { useMemberTexts } from './texts.ts';

export interface Access {
  role: RoleId;
  permissions: PermissionId[];
  is_contractor: boolean;
}

/**
 * Role, the manager's permission flags (shown for managers only: they mean nothing for
 * other roles) and the contractor flag. Only an owner may hand out the owner role.
 */
export function RoleFields({
  value,
  onChange,
  mayGrantOwner,
  roles = ROLE_IDS,
  contractor = true,
}: {
  value: Access;
  onChange: (a: Access) => void;
  mayGrantOwner: boolean;
  roles?: readonly RoleId[];
  /** Whether the contractor flag applies (not to agents). */
  contractor?: boolean;
}) {
  const t = useMemberTexts();
  const options = roles.filter((r) => r !== 'owner' || mayGrantOwner).map((r) => ({ id: r, label: roleLabel(r) }));
  return (
    <>
      <Select
        label={t('role')}
        options={options}
        selectedKey={value.role}
        onSelectionChange={(key) => key && onChange({ ...value, role: key as RoleId })}
      />
      {value.role === 'manager' && (
        <fieldset className="flex flex-col gap-2.5">
          <legend className="mb-1 text-sm font-medium text-stone-800">{t('managerPermissions')}</legend>
          {PERMISSION_IDS.map((p) => (
            <Checkbox
              key={p}
              isSelected={value.permissions.includes(p)}
              onChange={(on) => onChange({ ...value, permissions: on ? [...value.permissions, p] : value.permissions.filter((x) => x !== p) })}
            >
              {permissionLabel(p)}
            </Checkbox>
          ))}
        </fieldset>
      )}
      {contractor && value.role !== 'client' && (
        <Checkbox isSelected={value.is_contractor} onChange={(on) => onChange({ ...value, is_contractor: on })}>
          {t('contractorField')}
        </Checkbox>
      )}
    </>
  );
}

/** The access as the API takes it: permission flags only for managers. */
export const accessBody = (a: Access) => ({
  role: a.role,
  ...(a.role === 'manager' ? { permissions: a.permissions } : {}),
  is_contractor: a.role !== 'client' && a.is_contractor,
});
