// What the app shell renders on every screen: the login and register dialogs and the account menu.
export { AuthDialogsHost } from './components/AuthDialogsHost.tsx'
export { AccountMenu } from './components/AccountMenu.tsx'
