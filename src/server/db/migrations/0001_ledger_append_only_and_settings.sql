-- The ledger is evidence: once written, a movement is never changed or removed.
CREATE FUNCTION ledger_entries_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only
  BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_refuse_change();
--> statement-breakpoint
INSERT INTO system_settings (setting_key, setting_value, description) VALUES
  ('dare_creation_enabled', 'true', 'Users may create new dares'),
  ('registration_enabled', 'true', 'New wallets may register accounts')
ON CONFLICT DO NOTHING;
