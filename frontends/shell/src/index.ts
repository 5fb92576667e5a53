import './styles.css';
import { initSession } from '@cartable/ui';
import { createElement, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startLoadingRemoteFor } from './app/federation';

// Home, /books, a book page: their remote downloads while the shell renders its frame.
startLoadingRemoteFor(window.location.pathname);

// Reads the stored session now (synchronously) and confirms it with GET /api/user in the background.
void initSession();

const container = document.getElementById('root');
if (!container) throw new Error('Élément #root introuvable');
const root = createRoot(container);
// The first render as a transition: React renders it in slices of a few milliseconds and lets the
// browser breathe between them, where a plain render is one long task (on a slow phone, hundreds
// of milliseconds during which a tap waits). The boot screen stays until the page is ready.
startTransition(() => root.render(createElement(App)));
