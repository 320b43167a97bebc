/**
 * Admin rights, published to the users feature, `npm run admin` and tests
 * (scripts/boundaries/published.ts); the queries are this feature's repo's.
 */
export { setAdminById, setAdminByUsernameOrWallet } from './repo';
