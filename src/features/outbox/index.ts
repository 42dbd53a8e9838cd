// The queue of photos waiting to be sent: started with the offline features, listed on the offline screen.
export { startOutbox, queuedForSending } from './triggers.ts'
export { QueueList } from './components/QueueList.tsx'
