import { z } from 'zod/mini'

export const healthData = z.object({ status: z.literal('ok'), db: z.literal('ok'), version: z.string() })
export const buildInfo = z.object({ id: z.string(), timestamp: z.number() })
export type BuildInfo = z.infer<typeof buildInfo>
