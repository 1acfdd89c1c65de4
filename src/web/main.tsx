import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { takeTokenFromFragment } from './api.js';
import './app.css';

// Before the router reads the fragment: `#token=…` signs in and is removed from the address bar.
takeTokenFromFragment();
const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
