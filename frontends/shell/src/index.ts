import './styles.css';
import { initSession } from '@cartable/ui';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startLoadingRemoteFor } from './app/federation';

// Home, /books, a book page: their remote downloads while the shell renders its frame.
startLoadingRemoteFor(window.location.pathname);

// Reads the stored session now (synchronously) and confirms it with GET /api/user in the background.
void initSession();

const container = document.getElementById('root');
if (!container) throw new Error('Élément #root introuvable');
createRoot(container).render(createElement(App));
