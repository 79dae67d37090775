import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) {
  throw new Error('The page has no #root element to mount the app into.');
}

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
