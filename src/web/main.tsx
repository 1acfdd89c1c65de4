import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { takeTokenFromFragment } from './api.js';
import './app.css';

// Before the router reads the fragment: `#token=…` signs in and is removed from the address bar.
takeTokenFromFragment();
// A `#token=…` link opened in a tab where the app already runs changes only the fragment (no new page
// load): take it out of the address bar then too, and start again signed in.
window.addEventListener('hashchange', () => {
  if (takeTokenFromFragment()) location.reload();
});
const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
