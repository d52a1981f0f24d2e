// The third-party libraries of the server and the admin commands that are ES modules,
// loaded before tsx's loader hooks are registered. Measured: tsx's hooks run on a
// separate thread and every ES module import crosses to it, so loading these
// ~600 files first (kysely alone is ~260, TypeBox ~200) saves about a second of a
// command's start; the TypeScript sources then get these very module instances.
// CommonJS packages (Fastify, pino, …) do not cross, and are left to load on demand.
export const loadServerLibraries = () =>
  Promise.all([
    import('kysely'),
    import('@electric-sql/pglite'),
    import('pg'),
    import('@sinclair/typebox'),
    import('@simplewebauthn/server'),
    import('jose'),
    import('csv-parse/sync'),
  ]);
