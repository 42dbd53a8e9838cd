// What the app uses of the GPS boundary walk outside its screen: clearing a walk kept on the device.
export { clearWalk } from './store.ts'
