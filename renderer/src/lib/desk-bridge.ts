/**
 * Electron only: the preload asks main for the API's URL and token over IPC (an async answer), and
 * auth.ts reads them from `window.desk` when it loads; this top-level await makes every importer
 * wait for the answer. In a browser `window.deskShell` is absent and nothing waits.
 */
if (typeof window !== 'undefined' && window.deskShell) window.desk = await window.deskShell.connection().catch(() => undefined); // refused: the sign-in screen asks

export {};
