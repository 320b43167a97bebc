import { useId, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';

/**
 * Spec: two switches, both on by default; the save call is not shown, so for now they are local
 * state. The settings issue wires them to /api/admin/settings.
 */
export function SystemControls() {
  const id = useId();
  const [dareCreation, setDareCreation] = useState(true);
  const [registration, setRegistration] = useState(true);
  const controls = [
    {
      key: 'dare-creation',
      label: 'Dare creation enabled',
      description: 'Users can create new dares.',
      checked: dareCreation,
      onChange: setDareCreation,
    },
    {
      key: 'registration',
      label: 'User registration enabled',
      description: 'New wallets can register an account.',
      checked: registration,
      onChange: setRegistration,
    },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>System Controls</CardTitle>
        <CardDescription>Switch platform features on or off.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {controls.map((control) => (
          <div key={control.key} className="flex items-center justify-between gap-4 rounded-md border p-4">
            <div className="grid gap-1">
              <Label htmlFor={`${id}-${control.key}`}>{control.label}</Label>
              <p id={`${id}-${control.key}-description`} className="text-sm text-muted-foreground">
                {control.description}
              </p>
            </div>
            <Switch
              id={`${id}-${control.key}`}
              checked={control.checked}
              onCheckedChange={control.onChange}
              aria-describedby={`${id}-${control.key}-description`}
            />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
