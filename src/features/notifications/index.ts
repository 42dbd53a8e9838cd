// How other features tell the person something.
export { codeToast, pushToast, type ToastKind } from './toast.ts'
