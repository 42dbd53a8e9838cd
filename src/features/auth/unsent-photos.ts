import { listItems } from '#core/outbox/queue.ts'

/** Photos in the outbox not yet on the server: logging out would throw them away. */
export async function unsentPhotoCount(): Promise<number> {
  return (await listItems()).filter((item) => item.status !== 'sent').length
}
