import { useId } from 'react';
import type { SystemSettings } from '#contract/settings';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Label } from '#web/components/ui/label';
import { Switch } from '#web/components/ui/switch';
import { useSystemSettings } from '../api/get-system-settings';
import { useSaveSettings } from '../api/save-settings';

const CONTROLS: { key: keyof SystemSettings; label: string; description: string }[] = [
  {
    key: 'dareCreationEnabled',
    label: 'Dare creation enabled',
    description: 'Users can create new dares. When off, no escrow is handed out and no stake is taken.',
  },
  {
    key: 'registrationEnabled',
    label: 'User registration enabled',
    description: 'New wallets and usernames can register an account.',
  },
];

/**
 * docs/product.md#admin-panel: two switches, both on by default. Each flip saves at once (PUT /api/admin/settings) and
 * the switch shows what the server stored; the server enforces both.
 */
export function SystemControls() {
  const id = useId();
  const settings = useSystemSettings();
  const save = useSaveSettings();
  // While a save runs the switch shows the value being saved, then the server's answer.
  const shown = { ...settings.data, ...(save.isPending ? save.variables : {}) };
  return (
    <Card>
      <CardHeader>
        <CardTitle>System Controls</CardTitle>
        <CardDescription>
          {settings.isError
            ? `Failed to load settings: ${settings.error.message}`
            : 'Switch platform features on or off.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {CONTROLS.map((control) => (
          <div key={control.key} className="flex items-center justify-between gap-4 rounded-md border p-4">
            <div className="grid gap-1">
              <Label htmlFor={`${id}-${control.key}`}>{control.label}</Label>
              <p id={`${id}-${control.key}-description`} className="text-sm text-muted-foreground">
                {control.description}
              </p>
            </div>
            <Switch
              id={`${id}-${control.key}`}
              checked={shown[control.key] ?? false}
              disabled={!settings.data || save.isPending}
              onCheckedChange={(checked) => save.mutate({ [control.key]: checked })}
              aria-describedby={`${id}-${control.key}-description`}
            />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
