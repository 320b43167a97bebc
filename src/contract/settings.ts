import { z } from 'zod';

/** The System Controls switches of the admin panel. */
export const systemSettingsSchema = z
  .object({ dareCreationEnabled: z.boolean(), registrationEnabled: z.boolean() })
  .meta({ id: 'SystemSettings' });

export const systemSettingsUpdateSchema = systemSettingsSchema.partial().meta({ id: 'SystemSettingsUpdate' });

export type SystemSettings = z.infer<typeof systemSettingsSchema>;
export type SystemSettingsUpdate = z.infer<typeof systemSettingsUpdateSchema>;
