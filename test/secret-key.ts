/** The key tests seal secrets at rest with (src/auth/secret-box.ts); never a real one. */
export const TEST_SECRET_KEY = 'sheaf tests only: not a production secret key';
