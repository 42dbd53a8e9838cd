export * from './envelope.ts'
export * from './auth.ts'
export * from './lookups.ts'
export * from './system.ts'
