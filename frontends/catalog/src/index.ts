// Standalone development entry (npm run dev): the async boundary lets the shared modules resolve.
import('./bootstrap');
