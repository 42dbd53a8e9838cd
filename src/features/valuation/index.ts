// What other features use of the valuation: its draft, photos and shown result, and the photo upload.
export { draftAtom, photosAtom, resultAtom, type ShownResult } from './atoms.ts'
export { clearQueued } from './queue-store.ts'
export { newPhoto, removePhoto, updatePhoto, type PhotoItem } from './photos.ts'
export { uploadName, xhrFetch, type XhrLike } from './upload.ts'
